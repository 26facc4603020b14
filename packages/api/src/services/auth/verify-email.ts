import { consumeVerificationToken, type UserRow } from '@folio/auth';
import { redactMailedLinks } from '@folio/db/queries/email-outbox';
import type { Context } from '../../context';
import { badRequest } from '../../errors';
import type { User } from '../../schemas/user';
import { audit } from '../audit';
import { enforceRateLimit } from '../rate-limit';
import { VERIFY_MAIL } from './secret-link-mails';
import { forgetUserSessions } from './session-cache';
import { toUser } from './user-dto';
import { queueVerificationEmail } from './verification-email';

export const INVALID_VERIFICATION_TOKEN = 'Invalid or expired verification token';
export const ALREADY_VERIFIED = 'Email already verified';

/**
 * Verifies the address; a second use of the same link says so instead of failing, and nothing more:
 * whoever holds an old link (a forwarded mail, a shared screen) learns nothing of the account.
 */
export async function verifyEmail(ctx: Context, token: string): Promise<{ message: string; user?: User }> {
  const result = await consumeVerificationToken(ctx.db, token.trim());
  if (!result) throw badRequest(INVALID_VERIFICATION_TOKEN);
  const { user, alreadyVerified } = result;
  if (alreadyVerified) return { message: ALREADY_VERIFIED };
  forgetUserSessions(ctx.db, user.id);
  await redactMailedLinks(ctx.db, user.email, VERIFY_MAIL); // used: the outbox keeps no usable link
  await audit(ctx, 'user.verify_email', user.id, { entity: 'user', entityId: user.id });
  return { message: 'Email verified', user: toUser(user) };
}

/** Sends a new link (the old ones stop working); a verified user gets nothing new. */
export async function resendVerification(ctx: Context, user: UserRow): Promise<string> {
  if (user.emailVerified) return 'Email is already verified';
  await enforceRateLimit(ctx, { key: `resend-verification:${user.id}`, limit: 3, windowMs: 3600_000 });
  await ctx.db.transaction((tx) => queueVerificationEmail(ctx, tx, user));
  ctx.kickEmail();
  return 'Verification email sent';
}
