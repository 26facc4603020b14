import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '@folio/db';
import { emailVerificationTokens, users } from '@folio/db/schema';
import { and, eq, gt } from 'drizzle-orm';
import { generateToken, hashToken } from './tokens';

export const VERIFICATION_TTL_HOURS = 24;

/** Replaces the user's verification tokens with a new one; returns the secret for the link. */
export async function issueVerificationToken(db: Db | Tx, userId: string, email: string): Promise<string> {
  const token = generateToken();
  await db.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, userId));
  await db.insert(emailVerificationTokens).values({
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
export async function consumeVerificationToken(db: Db, token: string) {
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
          eq(emailVerificationTokens.tokenHash, hashToken(token)),
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
