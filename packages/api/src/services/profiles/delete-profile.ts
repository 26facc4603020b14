import { getEntitlements } from '@folio/billing';
import { fitProfilesToLimit, lockUser } from '@folio/db/queries/billing-profiles';
import { deleteProfile as removeProfile } from '@folio/db/queries/profiles';
import type { Context } from '../../context';
import { audit } from '../audit';
import { authorizeProfile } from './access';

/** Deletes the profile (its CFDI and expenses go with it); a frozen one may take the freed place. */
export async function deleteProfile(ctx: Context, userId: string, profileId: string): Promise<void> {
  const profile = await authorizeProfile(ctx, userId, profileId, 'write');
  await ctx.db.transaction(async (tx) => {
    await lockUser(tx, userId);
    await removeProfile(tx, profile.id);
    const { limits } = await getEntitlements(tx, userId);
    await fitProfilesToLimit(tx, userId, limits.profiles);
  });
  await audit(ctx, 'profile.delete', userId, {
    entity: 'profile',
    entityId: profile.id,
    data: { rfc: profile.rfc },
  });
}
