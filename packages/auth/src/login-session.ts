import type { Db } from '@folio/db';
import {
  deleteSession,
  findLiveSession,
  insertSession,
  type SessionRow,
  setSessionExpiry,
} from '@folio/db/queries/sessions';
import type { UserRow } from '@folio/db/queries/users';
import { generateToken, hashToken } from './tokens';

export type { SessionRow, UserRow };

/** Sessions as in the Lucia guide: the client keeps a random token, the database its SHA-256. */
export async function createSession(db: Db, userId: string, ttlMs: number) {
  const token = generateToken();
  const session = { id: hashToken(token), userId, expiresAt: new Date(Date.now() + ttlMs) };
  await insertSession(db, session);
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
  const row = await findLiveSession(db, id);
  if (!row) return null;
  if (row.session.expiresAt.getTime() - Date.now() >= ttlMs / 2) return { ...row, renewed: false };
  return { ...(await extendSession(db, row, ttlMs)), renewed: true };
}

/** Pushes the session's expiry to now + TTL (sliding, and POST /auth/refresh). */
export async function extendSession<T extends { session: SessionRow }>(
  db: Db,
  valid: T,
  ttlMs: number,
): Promise<T> {
  const expiresAt = new Date(Date.now() + ttlMs);
  await setSessionExpiry(db, valid.session.id, expiresAt);
  return { ...valid, session: { ...valid.session, expiresAt } };
}

export async function invalidateSession(db: Db, sessionId: string): Promise<void> {
  await deleteSession(db, sessionId);
}
