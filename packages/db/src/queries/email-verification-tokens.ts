import { and, eq, gt } from 'drizzle-orm';
import type { Db, Executor } from '../client';
import { emailVerificationTokens, users } from '../schema';

type NewVerificationToken = typeof emailVerificationTokens.$inferInsert;

/** The user's only verification token from now on: earlier ones are deleted. */
export async function replaceVerificationToken(db: Executor, token: NewVerificationToken): Promise<void> {
  await db.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, token.userId));
  await db.insert(emailVerificationTokens).values(token);
}

/**
 * Marks the email verified when the token is known, unexpired and was issued for the user's current
 * address; all the user's tokens are then spent. Returns the updated user, or null.
 */
export async function consumeVerificationTokenHash(db: Db, tokenHash: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        userId: emailVerificationTokens.userId,
        email: emailVerificationTokens.email,
        current: users.email,
      })
      .from(emailVerificationTokens)
      .innerJoin(users, eq(users.id, emailVerificationTokens.userId))
      .where(
        and(
          eq(emailVerificationTokens.tokenHash, tokenHash),
          gt(emailVerificationTokens.expiresAt, new Date()),
        ),
      );
    if (!row || row.email !== row.current) return null;
    await tx.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, row.userId));
    const [user] = await tx
      .update(users)
      .set({ emailVerified: true, updatedAt: new Date() })
      .where(eq(users.id, row.userId))
      .returning();
    return user ?? null;
  });
}
