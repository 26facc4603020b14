import { and, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { emailVerificationTokens, users } from '../schema';
import type { UserRow } from './users';

type NewVerificationToken = typeof emailVerificationTokens.$inferInsert;

/** The user's only verification token from now on: earlier ones are deleted. */
export async function replaceVerificationToken(db: Executor, token: NewVerificationToken): Promise<void> {
  await db.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, token.userId));
  await db.insert(emailVerificationTokens).values(token);
}

/** The user an unexpired token was issued to, and the address it was issued for. */
export async function findVerificationToken(
  db: Executor,
  tokenHash: string,
): Promise<{ email: string; user: UserRow } | undefined> {
  const [row] = await db
    .select({ email: emailVerificationTokens.email, user: users })
    .from(emailVerificationTokens)
    .innerJoin(users, eq(users.id, emailVerificationTokens.userId))
    .where(
      and(
        eq(emailVerificationTokens.tokenHash, tokenHash),
        gt(emailVerificationTokens.expiresAt, sql`now()`),
      ),
    );
  return row;
}
