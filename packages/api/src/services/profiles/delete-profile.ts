import { deleteProfile as removeProfile } from '@folio/db/queries/profiles';
import type { Context } from '../../context';
import { audit } from '../audit';
import { authorizeProfile } from './access';

export async function deleteProfile(ctx: Context, userId: string, profileId: string): Promise<void> {
  const profile = await authorizeProfile(ctx, userId, profileId, 'write');
  await removeProfile(ctx.db, profileId);
  await audit(ctx, 'profile.delete', userId, {
    entity: 'profile',
    entityId: profileId,
    data: { rfc: profile.rfc },
  });
}
