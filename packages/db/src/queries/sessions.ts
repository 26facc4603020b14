import { and, eq, gt, ne, sql } from 'drizzle-orm';
import type { Db, Executor } from '../client';
import { prepared } from '../prepared';
import { sessions, users } from '../schema';
import type { UserRow } from './users';

export type { UserRow };
export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(db: Db, session: Pick<SessionRow, 'id' | 'userId' | 'expiresAt'>) {
  await db.insert(sessions).values(session);
}

/** The unexpired session with this id, with its user. */
export async function findLiveSession(
  db: Db,
  id: string,
): Promise<{ user: UserRow; session: SessionRow } | undefined> {
  const [row] = await prepared(db, 'validateSession', (c) =>
    c
      .select({ user: users, session: sessions })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, sql.placeholder('id')), gt(sessions.expiresAt, sql`now()`))),
  ).execute({ id });
  return row;
}

export async function setSessionExpiry(db: Db, id: string, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id));
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
}

/** Ends every session of the user, or every one but `keep` (the caller's own). */
export async function deleteUserSessions(db: Executor, userId: string, keep?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), keep === undefined ? undefined : ne(sessions.id, keep)));
}
