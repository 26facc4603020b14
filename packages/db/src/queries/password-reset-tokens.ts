import { and, eq, gt, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../client';
import { passwordResetTokens } from '../schema';

/** Makes `id` (a token hash) the user's only reset token: an older link stops working. */
export async function replacePasswordResetToken(
  tx: Tx,
  token: { id: string; userId: string; expiresAt: Date },
): Promise<void> {
  await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, token.userId));
  await tx.insert(passwordResetTokens).values(token);
}

/**
 * Spends an unexpired token in one statement and returns its user id, or null. Two requests racing
 * with the same link cannot both get it: only one delete returns the row.
 */
export async function consumePasswordResetToken(db: Executor, id: string): Promise<string | null> {
  const [row] = await db
    .delete(passwordResetTokens)
    .where(and(eq(passwordResetTokens.id, id), gt(passwordResetTokens.expiresAt, sql`now()`)))
    .returning({ userId: passwordResetTokens.userId });
  return row?.userId ?? null;
}
