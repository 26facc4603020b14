import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { satFavorites, satProducts } from '../schema';
import { lockUser } from './billing-profiles';
import { RECORD } from './catalogs';

export type SaveFavoriteResult =
  | 'created'
  | 'updated'
  | 'unknown_code'
  | 'limit_reached'
  | { removedAt: Date };

/**
 * Adds the code to the user's favorites, or updates its note (`nota` undefined keeps it, and a code
 * since removed from the catalog keeps its note too). A code the catalog no longer holds is no new
 * favorite; a new one is refused past `limit`; the user's row lock makes the count and the insert one
 * decision.
 */
export async function saveSatFavorite(
  db: Db,
  f: { userId: string; clave: string; nota: string | null | undefined },
  limit: number,
): Promise<SaveFavoriteResult> {
  return db.transaction(async (tx) => {
    await lockUser(tx, f.userId);
    const mine = and(eq(satFavorites.userId, f.userId), eq(satFavorites.clave, f.clave));
    const [existing] = await tx.select({ nota: satFavorites.nota }).from(satFavorites).where(mine);
    if (existing) {
      if (f.nota !== undefined) await tx.update(satFavorites).set({ nota: f.nota }).where(mine);
      return 'updated';
    }
    const [product] = await tx
      .select({ removedAt: satProducts.removedAt })
      .from(satProducts)
      .where(eq(satProducts.id, f.clave));
    if (!product) return 'unknown_code';
    if (product.removedAt) return { removedAt: product.removedAt };
    const [held] = await tx
      .select({ n: count() })
      .from(satFavorites)
      .where(eq(satFavorites.userId, f.userId));
    if ((held?.n ?? 0) >= limit) return 'limit_reached';
    await tx.insert(satFavorites).values({ userId: f.userId, clave: f.clave, nota: f.nota ?? null });
    return 'created';
  });
}

/**
 * The user's favorites (or the one of code `clave`) with their catalog records, newest first; a code
 * removed from the catalog stays, with its last record and `removedAt`.
 */
export function listSatFavorites(db: Db, userId: string, clave?: string) {
  return db
    .select({ ...RECORD, nota: satFavorites.nota, addedAt: satFavorites.addedAt })
    .from(satFavorites)
    .innerJoin(satProducts, eq(satProducts.id, satFavorites.clave))
    .where(
      and(eq(satFavorites.userId, userId), clave === undefined ? undefined : eq(satFavorites.clave, clave)),
    )
    .orderBy(desc(satFavorites.addedAt), desc(satFavorites.clave));
}

/** Removes one favorite; false when the code was not one of the user's favorites. */
export async function deleteSatFavorite(db: Db, userId: string, clave: string): Promise<boolean> {
  const rows = await db
    .delete(satFavorites)
    .where(and(eq(satFavorites.userId, userId), eq(satFavorites.clave, clave)))
    .returning({ clave: satFavorites.clave });
  return rows.length > 0;
}
