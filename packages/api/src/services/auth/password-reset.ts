import {
  checkPasswordResetToken,
  consumePasswordResetToken,
  hashPassword,
  hashToken,
  issuePasswordResetToken,
  PASSWORD_RESET_TTL_MINUTES,
} from '@folio/auth';
import { redactMailedLinks } from '@folio/db/queries/email-outbox';
import { deleteUserSessions } from '@folio/db/queries/sessions';
import { setPasswordHash } from '@folio/db/queries/users';
import { enqueueEmailToAccount, renderPasswordResetEmail } from '@folio/email';
import type { Context } from '../../context';
import { badRequest } from '../../errors';
import { audit } from '../audit';
import { enforceRateLimit } from '../rate-limit';
import { settleKeysAndNotify } from './password-changed-email';
import { normalizeEmail } from './register';
import { RESET_MAIL } from './secret-link-mails';
import { forgetUserSessions } from './session-cache';

export const RESET_REQUESTED =
  'If an account exists for that address, we have sent it a link to reset the password';
const INVALID_RESET_TOKEN = 'Invalid or expired password reset token';
const HOUR = 3600_000;

/**
 * Mails a one-hour, single-use reset link when the address has an account. The caller learns nothing
 * either way: the answer is the same, the limits count both alike, and both run the very same
 * statements (each keyed by the address, writing nothing without an account) after rendering the
 * same mail, so neither the time nor the database's work tells them apart.
 *
 * The per-address limit counts per client too: requests from elsewhere cannot use up the owner's.
 */
export async function requestPasswordReset(ctx: Context, rawEmail: string): Promise<string> {
  const email = normalizeEmail(rawEmail);
  const ip = ctx.req.ip ?? 'local';
  await enforceRateLimit(ctx, { key: `forgot-password:${ip}`, limit: 10, windowMs: HOUR });
  await enforceRateLimit(ctx, { key: `forgot-password:${ip}:${email}`, limit: 3, windowMs: HOUR });
  await ctx.db.transaction(async (tx) => {
    const { token, userId } = await issuePasswordResetToken(tx, email);
    const resetUrl = new URL('/auth/reset-password', ctx.config.appUrl);
    resetUrl.searchParams.set('token', token);
    const mail = await renderPasswordResetEmail({
      resetUrl: resetUrl.toString(),
      expiresMinutes: PASSWORD_RESET_TTL_MINUTES,
    });
    await enqueueEmailToAccount(tx, email, { kind: RESET_MAIL, ...mail });
    await audit(ctx, 'user.password_reset_requested', userId, { entity: 'user', entityId: userId }, tx);
  });
  ctx.kickEmail();
  return RESET_REQUESTED;
}

/**
 * Sets the new password from a mailed link, and ends every session and every API key of the user, in
 * one transaction. The token is checked before the password is hashed (argon2 is the costly part, and
 * nobody without a link may buy it), and tries are limited per client and per token.
 */
export async function resetPassword(
  ctx: Context,
  input: { token: string; password: string },
): Promise<{ revokedKeys: number }> {
  const token = input.token.trim();
  await enforceRateLimit(ctx, { key: `reset-password:${ctx.req.ip ?? 'local'}`, limit: 10, windowMs: HOUR });
  // The hash, never the secret, in the limit's key: rate_limits must not hold a usable link.
  await enforceRateLimit(ctx, { key: `reset-password:token:${hashToken(token)}`, limit: 5, windowMs: HOUR });
  if (!(await checkPasswordResetToken(ctx.db, token))) throw badRequest(INVALID_RESET_TOKEN);
  const passwordHash = await hashPassword(input.password);
  const result = await ctx.db.transaction(async (tx) => {
    const userId = await consumePasswordResetToken(tx, token);
    if (!userId) throw badRequest(INVALID_RESET_TOKEN);
    const user = await setPasswordHash(tx, userId, passwordHash);
    if (!user) throw badRequest(INVALID_RESET_TOKEN);
    await deleteUserSessions(tx, userId);
    await redactMailedLinks(tx, user.email, RESET_MAIL); // spent: the outbox keeps no usable link
    const settled = await settleKeysAndNotify(ctx, tx, user, true);
    await audit(
      ctx,
      'user.password_reset',
      userId,
      { entity: 'user', entityId: userId, data: { revokedApiKeys: settled.revokedKeys } },
      tx,
    );
    return { ...settled, userId };
  });
  forgetUserSessions(ctx.db, result.userId); // committed: no request reads the old rows again
  ctx.kickEmail();
  return { revokedKeys: result.revokedKeys };
}
