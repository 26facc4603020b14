import { normalizeRfc } from '@folio/cfdi';
import { listProfiles, type ProfileRow } from '@folio/db/queries/profiles';
import type { Context } from '../../context';
import { authorizeProfile, type ProfileAccess } from './access';

/**
 * Where the contract names a profile by "profile id, the issuer RFC" (docs/design.md#profiles-named-by-id-or-rfc): the profile's id, or an
 * RFC resolved among the caller's own profiles. Unknown → 404, someone else's id → 403.
 */
export async function resolveProfileRef(
  ctx: Context,
  userId: string,
  ref: string,
  access: ProfileAccess,
): Promise<ProfileRow> {
  const rfc = normalizeRfc(ref);
  if (/^[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}$/.test(rfc)) {
    const mine = (await listProfiles(ctx.db, userId)).find((p) => p.rfc === rfc);
    if (mine) return authorizeProfile(ctx, userId, mine.id, access);
  }
  return authorizeProfile(ctx, userId, ref, access);
}
