import type { Executor, Tx } from '@folio/db';
import {
  consumePasswordResetToken as consume,
  findPasswordResetToken,
  replacePasswordResetTokenOf,
} from '@folio/db/queries/password-reset-tokens';
import { generateToken, hashToken } from './tokens';

export const PASSWORD_RESET_TTL_MINUTES = 60;

/**
 * A single-use reset secret for the mail to `email`; only its hash is stored, and it replaces older
 * ones. `userId` is null when no account has that address: the secret is made (and the statements
 * run) all the same.
 */
export async function issuePasswordResetToken(
  tx: Tx,
  email: string,
): Promise<{ token: string; userId: string | null }> {
  const token = generateToken();
  const userId = await replacePasswordResetTokenOf(tx, {
    id: hashToken(token),
    email,
    ttlMinutes: PASSWORD_RESET_TTL_MINUTES,
  });
  return { token, userId };
}

/** The user of a known, unexpired token, which stays unspent; null otherwise. */
export function checkPasswordResetToken(db: Executor, token: string): Promise<string | null> {
  return findPasswordResetToken(db, hashToken(token));
}

/** Spends the token (once, even under concurrent use); returns its user id, or null when unknown or expired. */
export function consumePasswordResetToken(db: Executor, token: string): Promise<string | null> {
  return consume(db, hashToken(token));
}
