import { randomUUID } from 'node:crypto';
import type { Db, Executor } from '@folio/db';
import { findVerificationToken, replaceVerificationToken } from '@folio/db/queries/email-verification-tokens';
import { markEmailVerified, type UserRow } from '@folio/db/queries/users';
import { generateToken, hashToken } from './tokens';

export const VERIFICATION_TTL_HOURS = 24;

/** Replaces the user's verification tokens with a new one; returns the secret for the link. */
export async function issueVerificationToken(db: Executor, userId: string, email: string): Promise<string> {
  const token = generateToken();
  await replaceVerificationToken(db, {
    id: randomUUID(),
    userId,
    email,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + VERIFICATION_TTL_HOURS * 3600_000),
  });
  return token;
}

/**
 * Marks the email verified when the token is known, unexpired and was issued for the user's current
 * address; returns the user, or null. The token stays valid until it expires so that a second click
 * on the link can say "already verified" instead of "invalid" (verifying twice changes nothing).
 */
export async function consumeVerificationToken(
  db: Db,
  token: string,
): Promise<{ user: UserRow; alreadyVerified: boolean } | null> {
  const row = await findVerificationToken(db, hashToken(token));
  if (!row || row.email !== row.user.email) return null;
  if (row.user.emailVerified) return { user: row.user, alreadyVerified: true };
  const user = await markEmailVerified(db, row.user.id);
  return user ? { user, alreadyVerified: false } : null;
}
