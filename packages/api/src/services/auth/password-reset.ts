import {
  consumePasswordResetToken,
  hashPassword,
  issuePasswordResetToken,
  PASSWORD_RESET_TTL_MINUTES,
} from '@folio/auth';
import { deleteUserSessions } from '@folio/db/queries/sessions';
import { findUserByEmail, setPasswordHash } from '@folio/db/queries/users';
import { enqueueEmail, renderPasswordResetEmail } from '@folio/email';
import type { Context } from '../../context';
import { badRequest } from '../../errors';
import { audit } from '../audit';
import { enforceRateLimit } from '../rate-limit';
import { normalizeEmail } from './email';
import { queuePasswordChangedEmail } from './password-changed-email';

export const RESET_REQUESTED =
  'If an account exists for that address, we have sent it a link to reset the password';

/**
 * Mails a one-hour, single-use reset link when the address has an account. The caller learns nothing
 * either way: the answer is the same, the limits count both alike, and both paths do the same work
 * (one lookup, one rendered mail, one transaction) so the time does not tell them apart either.
 */
export async function requestPasswordReset(ctx: Context, rawEmail: string): Promise<string> {
  const email = normalizeEmail(rawEmail);
  await enforceRateLimit(ctx, {
    key: `forgot-password:${ctx.req.ip ?? 'local'}`,
    limit: 10,
    windowMs: 3600_000,
  });
  await enforceRateLimit(ctx, { key: `forgot-password:${email}`, limit: 3, windowMs: 3600_000 });
  const user = await findUserByEmail(ctx.db, email);
  await ctx.db.transaction(async (tx) => {
    // Without an account the mail is still rendered (same cost), then dropped.
    const token = user ? await issuePasswordResetToken(tx, user.id) : 'none';
    const resetUrl = new URL('/auth/reset-password', ctx.config.appUrl);
    resetUrl.searchParams.set('token', token);
    const mail = await renderPasswordResetEmail({
      resetUrl: resetUrl.toString(),
      expiresMinutes: PASSWORD_RESET_TTL_MINUTES,
    });
    if (!user) return;
    await enqueueEmail(tx, { to: user.email, kind: 'password-reset', ...mail });
    await audit(ctx, 'user.password_reset_requested', user.id, { entity: 'user', entityId: user.id }, tx);
  });
  if (user) ctx.kickEmail();
  return RESET_REQUESTED;
}

/** Sets the new password from a mailed link and ends every session of the user, in one transaction. */
export async function resetPassword(ctx: Context, input: { token: string; password: string }): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction(async (tx) => {
    const userId = await consumePasswordResetToken(tx, input.token.trim());
    if (!userId) throw badRequest('Invalid or expired password reset token');
    const user = await setPasswordHash(tx, userId, passwordHash);
    if (!user) throw badRequest('Invalid or expired password reset token');
    await deleteUserSessions(tx, userId);
    await queuePasswordChangedEmail(ctx, tx, user);
    await audit(ctx, 'user.password_reset', userId, { entity: 'user', entityId: userId }, tx);
  });
  ctx.kickEmail();
}
