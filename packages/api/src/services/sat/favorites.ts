import { deleteSatFavorite, listSatFavorites, saveSatFavorite } from '@folio/db/queries/sat-favorites';
import type { Context } from '../../context';
import { forbidden, notFound } from '../../errors';
import { codeRemoved } from './catalogs';
import { MAX_FAVORITES, requireSatFeature } from './rules';
import { toSatFavorite } from './sat-user-dto';

export async function favoritesOf(ctx: Context, userId: string) {
  await requireSatFeature(ctx, userId, 'satHasFavorites');
  return (await listSatFavorites(ctx.db, userId)).map(toSatFavorite);
}

/**
 * Adds a code (201) or updates a favorite's note (200). An omitted `nota` leaves the note as it is,
 * so re-adding a favorite never wipes it; `null` or "" clears it.
 */
export async function saveFavorite(
  ctx: Context,
  userId: string,
  clave: string,
  nota: string | null | undefined,
) {
  await requireSatFeature(ctx, userId, 'satHasFavorites');
  const result = await saveSatFavorite(
    ctx.db,
    { userId, clave, nota: nota === '' ? null : nota },
    MAX_FAVORITES,
  );
  if (result === 'unknown_code') throw notFound(`SAT code ${clave} not found`);
  if (typeof result === 'object') throw codeRemoved(clave, result.removedAt);
  if (result === 'limit_reached') {
    throw forbidden(
      `You already have ${MAX_FAVORITES} favorite SAT codes; remove one to add another`,
      'favorite_limit_reached',
    );
  }
  if (result === 'updated') ctx.req.status = 200;
  const [saved] = await listSatFavorites(ctx.db, userId, clave);
  if (!saved) throw notFound(`SAT code ${clave} is not a favorite`); // removed meanwhile
  return {
    message: result === 'created' ? `SAT code ${clave} added to favorites` : `Favorite ${clave} updated`,
    data: toSatFavorite(saved),
  };
}

export async function removeFavorite(ctx: Context, userId: string, clave: string) {
  await requireSatFeature(ctx, userId, 'satHasFavorites');
  if (!(await deleteSatFavorite(ctx.db, userId, clave)))
    throw notFound(`SAT code ${clave} is not a favorite`);
  return { message: `SAT code ${clave} removed from favorites` };
}
