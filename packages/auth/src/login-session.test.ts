import { createHash, randomUUID } from 'node:crypto';
import { type DbHandle, rowsOf } from '@folio/db';
import { sessions, users } from '@folio/db/schema';
import { testDb } from '@folio/db/testing/vitest';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, invalidateSession, validateSessionToken } from './login-session';

let handle: DbHandle;
beforeAll(async () => {
  handle = await testDb();
});
afterAll(async () => {
  await handle?.close();
});

const DAY = 24 * 3600_000;
const TTL = 30 * DAY;
const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');

async function newUser() {
  const id = randomUUID();
  await handle.db.insert(users).values({ id, email: `${id}@example.com`, passwordHash: 'not-a-real-hash' });
  return id;
}

async function storedExpiry(sessionId: string) {
  const [row] = await handle.db.select().from(sessions).where(eq(sessions.id, sessionId));
  return row?.expiresAt;
}

async function setExpiry(sessionId: string, expiresAt: Date) {
  await handle.db.update(sessions).set({ expiresAt }).where(eq(sessions.id, sessionId));
}

describe('createSession', () => {
  it('stores only the SHA-256 hex of the token: the token itself is nowhere in sessions', async () => {
    const userId = await newUser();
    const before = Date.now();
    const { token, session } = await createSession(handle.db, userId, TTL);
    expect(token).toMatch(/^[a-z2-7]{32}$/); // 20 random bytes, base32
    expect(session.id).toBe(sha256Hex(token));
    expect(session.id).toMatch(/^[0-9a-f]{64}$/);

    const rows = await handle.db.select().from(sessions).where(eq(sessions.userId, userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(sha256Hex(token));
    expect(rows[0]!.expiresAt.getTime()).toBeGreaterThanOrEqual(before + TTL);
    expect(rows[0]!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + TTL);

    // No column of any session row carries the secret (compared as text, so types don't hide it).
    const hits = await handle.db.execute(sql`select 1 from sessions s where s::text like ${`%${token}%`}`);
    expect(rowsOf(hits)).toHaveLength(0);
  });

  it('gives each session a different token', async () => {
    const userId = await newUser();
    const a = await createSession(handle.db, userId, TTL);
    const b = await createSession(handle.db, userId, TTL);
    expect(a.token).not.toBe(b.token);
    expect(a.session.id).not.toBe(b.session.id);
  });
});

describe('validateSessionToken', () => {
  it('returns the user and session for a valid token', async () => {
    const userId = await newUser();
    const { token, session } = await createSession(handle.db, userId, TTL);
    const valid = await validateSessionToken(handle.db, token, TTL);
    expect(valid).not.toBeNull();
    expect(valid!.user).toMatchObject({ id: userId, email: `${userId}@example.com` });
    expect(valid!.session).toMatchObject({ id: session.id, userId });
    expect(valid!.renewed).toBe(false);
  });

  it('returns null for an unknown token', async () => {
    expect(await validateSessionToken(handle.db, 'abcdefghijklmnopqrstuvwxyz234567', TTL)).toBeNull();
    expect(await validateSessionToken(handle.db, '', TTL)).toBeNull();
  });

  it('returns null when given the stored id (the hash) instead of the token', async () => {
    const { session } = await createSession(handle.db, await newUser(), TTL);
    expect(await validateSessionToken(handle.db, session.id, TTL)).toBeNull();
  });

  it('returns null after invalidateSession, which leaves the user other sessions alone', async () => {
    const userId = await newUser();
    const gone = await createSession(handle.db, userId, TTL);
    const kept = await createSession(handle.db, userId, TTL);
    await invalidateSession(handle.db, gone.session.id);
    expect(await validateSessionToken(handle.db, gone.token, TTL)).toBeNull();
    expect(await storedExpiry(gone.session.id)).toBeUndefined();
    expect((await validateSessionToken(handle.db, kept.token, TTL))?.user.id).toBe(userId);
  });

  it('returns null once expires_at is in the past', async () => {
    const { token, session } = await createSession(handle.db, await newUser(), TTL);
    await setExpiry(session.id, new Date(Date.now() - 1000));
    expect(await validateSessionToken(handle.db, token, TTL)).toBeNull();
  });

  it('slides expires_at to now + TTL and reports renewed when less than half the TTL remains', async () => {
    const { token, session } = await createSession(handle.db, await newUser(), TTL);
    const old = new Date(Date.now() + 0.4 * TTL);
    await setExpiry(session.id, old);

    const before = Date.now();
    const valid = await validateSessionToken(handle.db, token, TTL);
    const after = Date.now();
    expect(valid?.renewed).toBe(true);
    const stored = (await storedExpiry(session.id))!;
    expect(stored.getTime()).toBeGreaterThanOrEqual(before + TTL);
    expect(stored.getTime()).toBeLessThanOrEqual(after + TTL);
    expect(valid!.session.expiresAt.getTime()).toBe(stored.getTime());

    // Now fresh again: the next validation does not renew.
    const again = await validateSessionToken(handle.db, token, TTL);
    expect(again?.renewed).toBe(false);
    expect((await storedExpiry(session.id))!.getTime()).toBe(stored.getTime());
  });

  it('leaves expires_at unchanged and reports renewed: false when more than half the TTL remains', async () => {
    const { token, session } = await createSession(handle.db, await newUser(), TTL);
    const set = new Date(Date.now() + 0.6 * TTL);
    await setExpiry(session.id, set);

    const valid = await validateSessionToken(handle.db, token, TTL);
    expect(valid?.renewed).toBe(false);
    expect(valid!.session.expiresAt.getTime()).toBe(set.getTime());
    expect((await storedExpiry(session.id))!.getTime()).toBe(set.getTime());
  });

  it('returns null once the user is deleted (sessions cascade)', async () => {
    const userId = await newUser();
    const { token, session } = await createSession(handle.db, userId, TTL);
    await handle.db.delete(users).where(eq(users.id, userId));
    expect(await validateSessionToken(handle.db, token, TTL)).toBeNull();
    expect(await storedExpiry(session.id)).toBeUndefined();
  });
});
