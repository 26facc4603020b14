import type { Executor, Tx } from '@folio/db';
import {
  consumePasswordResetToken as consume,
  replacePasswordResetToken,
} from '@folio/db/queries/password-reset-tokens';
import { generateToken, hashToken } from './tokens';

export const PASSWORD_RESET_TTL_MINUTES = 60;

/** A single-use reset secret for the mail; only its hash is stored, and it replaces older ones. */
export async function issuePasswordResetToken(tx: Tx, userId: string): Promise<string> {
  const token = generateToken();
  await replacePasswordResetToken(tx, {
    id: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + PASSWORD_RESET_TTL_MINUTES * 60_000),
  });
  return token;
}

/** Spends the token (once, even under concurrent use); returns its user id, or null when unknown or expired. */
export function consumePasswordResetToken(db: Executor, token: string): Promise<string | null> {
  return consume(db, hashToken(token));
}
