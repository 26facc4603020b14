import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { users } from '../schema';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** Emails are stored lower-cased; `email` must already be trimmed and lower-cased. */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
  return row;
}

/** Inserts the user, or returns undefined when the address is already taken (the unique index decides). */
export async function insertUser(tx: Executor, user: NewUser): Promise<UserRow | undefined> {
  const [row] = await tx.insert(users).values(user).onConflictDoNothing().returning();
  return row;
}

export async function setPasswordHash(
  db: Executor,
  userId: string,
  passwordHash: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ passwordHash, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return row;
}

export async function markEmailVerified(db: Executor, userId: string): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ emailVerified: true, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return row;
}
