import { and, eq, gt, sql } from 'drizzle-orm';
import { type Executor, rowsOf, type Tx } from '../client';
import { passwordResetTokens } from '../schema';

/**
 * Makes `id` (a token hash) the only reset token of the account at `email`, when there is one, and
 * returns its user id (else null). The same two statements run for an unknown address, changing
 * nothing: what the database does must not tell registered addresses apart.
 */
export async function replacePasswordResetTokenOf(
  tx: Tx,
  token: { id: string; email: string; ttlMinutes: number },
): Promise<string | null> {
  await tx.execute(sql`delete from password_reset_tokens
    where user_id in (select id from users where email = ${token.email})`);
  const inserted = await tx.execute(sql`insert into password_reset_tokens (id, user_id, expires_at)
    select ${token.id}, id, now() + make_interval(mins => ${token.ttlMinutes})
    from users where email = ${token.email}
    returning user_id`);
  return rowsOf<{ user_id: string }>(inserted)[0]?.user_id ?? null;
}

/** The user of an unexpired token, without spending it (checked before any password is hashed). */
export async function findPasswordResetToken(db: Executor, id: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .where(and(eq(passwordResetTokens.id, id), gt(passwordResetTokens.expiresAt, sql`now()`)));
  return row?.userId ?? null;
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
