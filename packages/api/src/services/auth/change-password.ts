import { hashPassword, type SessionRow, type UserRow, verifyPassword } from '@folio/auth';
import { deleteUserSessions } from '@folio/db/queries/sessions';
import { setPasswordHash } from '@folio/db/queries/users';
import type { Context } from '../../context';
import { badRequest, unauthorized } from '../../errors';
import { audit } from '../audit';
import { enforceRateLimit } from '../rate-limit';
import { settleKeysAndNotify } from './password-changed-email';
import { forgetUserSessions } from './session-cache';

/**
 * Changes the password of a logged-in user who knows the current one; every other session ends (a
 * thief holding one is out), the caller's own stays. API keys end too when asked (`revokeApiKeys`);
 * otherwise the notice lists those still active. Wrong guesses are limited per user.
 */
export async function changePassword(
  ctx: Context,
  user: UserRow,
  session: SessionRow | null,
  input: { currentPassword: string; newPassword: string; revokeApiKeys?: boolean },
): Promise<{ revokedKeys: number }> {
  if (!session) throw unauthorized('Changing the password needs a logged-in session');
  await enforceRateLimit(ctx, { key: `change-password:${user.id}`, limit: 5, windowMs: 15 * 60_000 });
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw badRequest('Current password is incorrect');
  }
  const passwordHash = await hashPassword(input.newPassword);
  const result = await ctx.db.transaction(async (tx) => {
    await setPasswordHash(tx, user.id, passwordHash);
    await deleteUserSessions(tx, user.id, session.id);
    const settled = await settleKeysAndNotify(ctx, tx, user, input.revokeApiKeys === true);
    await audit(
      ctx,
      'user.password_change',
      user.id,
      { entity: 'user', entityId: user.id, data: { revokedApiKeys: settled.revokedKeys } },
      tx,
    );
    return settled;
  });
  forgetUserSessions(ctx.db, user.id); // committed: no request reads the old rows again
  ctx.kickEmail();
  return result;
}
