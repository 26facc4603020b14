import { normalizeRfc } from '@folio/cfdi';
import { findOwnProfileByRfc, findProfile, listProfiles, type ProfileRow } from '@folio/db/queries/profiles';
import type { Context } from '../../context';
import { forbidden, notFound } from '../../errors';
import { toProfile } from './profile-dto';

export type ProfileAccess = 'read' | 'write';

const RFC_SHAPE = /^[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}$/;

/**
 * The one place that decides whether a user may use a profile. Wherever a caller names a profile
 * (path, query or body) it may give the profile's id or its RFC: an RFC is looked up among the
 * caller's own profiles only (DESIGN §3). Missing → 404, someone else's → 403, a write on a frozen
 * one → 403 (frozen profiles are read-only until the plan allows them again).
 */
export async function authorizeProfile(
  ctx: Context,
  userId: string,
  ref: string,
  access: ProfileAccess,
): Promise<ProfileRow> {
  const rfc = normalizeRfc(ref);
  const profile =
    (RFC_SHAPE.test(rfc) ? await findOwnProfileByRfc(ctx.db, userId, rfc) : undefined) ??
    (await findProfile(ctx.db, ref));
  if (!profile) throw notFound('Profile not found');
  if (profile.userId !== userId) throw forbidden('You do not have permission to use this profile');
  if (access === 'write' && profile.frozen) {
    throw forbidden(
      'This profile is frozen because your plan allows fewer profiles; upgrade to edit it',
      'profile_frozen',
    );
  }
  return profile;
}

/** Every profile of the user, frozen ones included (they stay readable). */
export async function listUserProfiles(ctx: Context, userId: string) {
  return (await listProfiles(ctx.db, userId)).map(toProfile);
}
