import { findProfile, type ProfileRow } from '@folio/db/queries/profiles';
import type { Context } from '../../context';
import { forbidden, notFound } from '../../errors';

export type ProfileAccess = 'read' | 'write';

/**
 * The one place that decides whether a user may use a profile: missing → 404, someone else's → 403,
 * a write on a frozen one → 403 (frozen profiles are read-only until the plan allows them again).
 */
export async function authorizeProfile(
  ctx: Context,
  userId: string,
  profileId: string,
  access: ProfileAccess,
): Promise<ProfileRow> {
  const profile = await findProfile(ctx.db, profileId);
  if (!profile) throw notFound('Profile not found');
  if (profile.userId !== userId) throw forbidden('You do not have permission to use this profile');
  if (access === 'write' && profile.frozen) {
    throw forbidden('This profile is frozen because your plan allows fewer profiles; upgrade to edit it');
  }
  return profile;
}
