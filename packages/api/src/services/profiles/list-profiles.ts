import { listProfiles } from '@folio/db/queries/profiles';
import type { Context } from '../../context';
import { toProfile } from './profile-dto';

/** Every profile of the user, frozen ones included (they stay readable). */
export async function listUserProfiles(ctx: Context, userId: string) {
  return (await listProfiles(ctx.db, userId)).map(toProfile);
}
