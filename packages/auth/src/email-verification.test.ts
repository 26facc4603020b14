import { createHash, randomUUID } from 'node:crypto';
import { type DbHandle, rowsOf } from '@folio/db';
import { emailVerificationTokens, users } from '@folio/db/schema';
import { testDb } from '@folio/db/testing/vitest';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consumeVerificationToken,
  issueVerificationToken,
  VERIFICATION_TTL_HOURS,
} from './email-verification';

let handle: DbHandle;
beforeAll(async () => {
  handle = await testDb();
});
afterAll(async () => {
  await handle?.close();
});

const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');

async function newUser() {
  const id = randomUUID();
  const email = `${id}@example.com`;
  await handle.db.insert(users).values({ id, email, passwordHash: 'not-a-real-hash' });
  return { id, email };
}

const tokensOf = (userId: string) =>
  handle.db.select().from(emailVerificationTokens).where(eq(emailVerificationTokens.userId, userId));
const userRow = async (id: string) => (await handle.db.select().from(users).where(eq(users.id, id)))[0]!;

describe('issueVerificationToken', () => {
  it('stores only the SHA-256 hex of the token, for the given email, expiring in 24 h', async () => {
    const user = await newUser();
    const before = Date.now();
    const token = await issueVerificationToken(handle.db, user.id, user.email);
    expect(token).toMatch(/^[a-z2-7]{32}$/);

    const rows = await tokensOf(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: user.id, email: user.email, tokenHash: sha256Hex(token) });
    expect(rows[0]!.id).not.toBe(token);
    expect(rows[0]!.expiresAt.getTime()).toBeGreaterThanOrEqual(before + VERIFICATION_TTL_HOURS * 3600_000);
    expect(rows[0]!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + VERIFICATION_TTL_HOURS * 3600_000);
    const hits = await handle.db.execute(
      sql`select 1 from email_verification_tokens t where t::text like ${`%${token}%`}`,
    );
    expect(rowsOf(hits)).toHaveLength(0);
  });

  it('invalidates the previous token: issuing again leaves one row, and only the new token works', async () => {
    const user = await newUser();
    const first = await issueVerificationToken(handle.db, user.id, user.email);
    const second = await issueVerificationToken(handle.db, user.id, user.email);
    expect(second).not.toBe(first);
    const rows = await tokensOf(user.id);
    expect(rows.map((r) => r.tokenHash)).toEqual([sha256Hex(second)]);

    expect(await consumeVerificationToken(handle.db, first)).toBeNull();
    expect((await userRow(user.id)).emailVerified).toBe(false);
    expect((await consumeVerificationToken(handle.db, second))?.user.emailVerified).toBe(true);
  });

  it("leaves other users' tokens alone", async () => {
    const a = await newUser();
    const b = await newUser();
    const tokenA = await issueVerificationToken(handle.db, a.id, a.email);
    await issueVerificationToken(handle.db, b.id, b.email);
    expect(await tokensOf(a.id)).toHaveLength(1);
    expect((await consumeVerificationToken(handle.db, tokenA))?.user.id).toBe(a.id);
    expect(await tokensOf(b.id)).toHaveLength(1);
    expect((await userRow(b.id)).emailVerified).toBe(false);
  });

  it('takes part in the caller transaction: a rollback leaves the previous token valid', async () => {
    const user = await newUser();
    const kept = await issueVerificationToken(handle.db, user.id, user.email);
    await expect(
      handle.db.transaction(async (tx) => {
        await issueVerificationToken(tx, user.id, user.email);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await tokensOf(user.id)).map((r) => r.tokenHash)).toEqual([sha256Hex(kept)]);
  });
});

describe('consumeVerificationToken', () => {
  it("marks the user's email verified and returns the user", async () => {
    const user = await newUser();
    const token = await issueVerificationToken(handle.db, user.id, user.email);
    const before = (await userRow(user.id)).updatedAt;

    const verified = await consumeVerificationToken(handle.db, token);
    expect(verified?.alreadyVerified).toBe(false);
    expect(verified?.user).toMatchObject({ id: user.id, email: user.email, emailVerified: true });
    const stored = await userRow(user.id);
    expect(stored.emailVerified).toBe(true);
    expect(stored.updatedAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
  });

  it('says already verified for a second use of the same token, changing nothing', async () => {
    const user = await newUser();
    const token = await issueVerificationToken(handle.db, user.id, user.email);
    expect((await consumeVerificationToken(handle.db, token))?.alreadyVerified).toBe(false);
    const updatedAt = (await userRow(user.id)).updatedAt;
    expect(await consumeVerificationToken(handle.db, token)).toMatchObject({
      alreadyVerified: true,
      user: { id: user.id, emailVerified: true },
    });
    expect((await userRow(user.id)).updatedAt).toEqual(updatedAt);
  });

  it('returns null for an unknown token, or for the stored hash used as a token', async () => {
    const user = await newUser();
    const token = await issueVerificationToken(handle.db, user.id, user.email);
    expect(await consumeVerificationToken(handle.db, 'abcdefghijklmnopqrstuvwxyz234567')).toBeNull();
    expect(await consumeVerificationToken(handle.db, sha256Hex(token))).toBeNull();
    expect((await userRow(user.id)).emailVerified).toBe(false);
  });

  it('returns null for an expired token and leaves the user unverified', async () => {
    const user = await newUser();
    const token = await issueVerificationToken(handle.db, user.id, user.email);
    await handle.db
      .update(emailVerificationTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailVerificationTokens.userId, user.id));
    expect(await consumeVerificationToken(handle.db, token)).toBeNull();
    expect((await userRow(user.id)).emailVerified).toBe(false);
  });

  it("returns null for a token issued for the user's old email (address changed since)", async () => {
    const user = await newUser();
    const token = await issueVerificationToken(handle.db, user.id, user.email);
    await handle.db
      .update(users)
      .set({ email: `new-${user.id}@example.com` })
      .where(eq(users.id, user.id));
    expect(await consumeVerificationToken(handle.db, token)).toBeNull();
    expect((await userRow(user.id)).emailVerified).toBe(false);
  });
});
