import { type Db, prepared } from '@folio/db';
import { sessions, users } from '@folio/db/schema';
import { and, eq, gt, sql } from 'drizzle-orm';
import { generateToken, hashToken } from './tokens';

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

/** Sessions as in the Lucia guide: the client keeps a random token, the database its SHA-256. */
export async function createSession(db: Db, userId: string, ttlMs: number) {
  const token = generateToken();
  const session = { id: hashToken(token), userId, expiresAt: new Date(Date.now() + ttlMs) };
  await db.insert(sessions).values(session);
  return { token, session };
}

export interface ValidSession {
  user: UserRow;
  session: SessionRow;
  /** True when the expiry slid forward; cookie clients should then get a fresh access token. */
  renewed: boolean;
}

/** Looks the session up by token; slides its expiry when less than half the lifetime remains. */
export async function validateSessionToken(
  db: Db,
  token: string,
  ttlMs: number,
): Promise<ValidSession | null> {
  const id = hashToken(token);
  const [row] = await prepared(db, 'validateSession', (c) =>
    c
      .select({ user: users, session: sessions })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, sql.placeholder('id')), gt(sessions.expiresAt, sql`now()`))),
  ).execute({ id });
  if (!row) return null;
  if (row.session.expiresAt.getTime() - Date.now() >= ttlMs / 2) return { ...row, renewed: false };
  const expiresAt = new Date(Date.now() + ttlMs);
  await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id));
  return { user: row.user, session: { ...row.session, expiresAt }, renewed: true };
}

export async function invalidateSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}
