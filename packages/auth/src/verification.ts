import { randomUUID } from 'node:crypto';
import type { Db, Executor } from '@folio/db';
import {
  consumeVerificationTokenHash,
  replaceVerificationToken,
} from '@folio/db/queries/email-verification-tokens';
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
 * address; all the user's tokens are then spent. Returns the updated user, or null.
 */
export function consumeVerificationToken(db: Db, token: string) {
  return consumeVerificationTokenHash(db, hashToken(token));
}
