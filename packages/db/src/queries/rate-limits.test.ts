import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, rowsOf } from '../client';
import { testDb } from '../testing/vitest';
import { hitRateLimit, resetRateLimit } from './rate-limits';

let handle: DbHandle;
beforeAll(async () => {
  handle = await testDb();
});
afterAll(async () => {
  await handle?.close();
});

const MINUTE = 60_000;
let n = 0;
/** A key no other test touches. */
const freshKey = (label: string) => `test:${label}:${++n}`;

async function storedRow(key: string) {
  const [row] = rowsOf<{ points: number; expires_at: string | Date }>(
    await handle.db.execute(sql`select points, expires_at from rate_limits where key = ${key}`),
  );
  return row && { points: Number(row.points), expiresAt: new Date(row.expires_at) };
}

describe('hitRateLimit', () => {
  it('counts 1, 2, 3 within one window, all with the same resetAt', async () => {
    const key = freshKey('count');
    const a = await hitRateLimit(handle.db, key, MINUTE);
    const b = await hitRateLimit(handle.db, key, MINUTE);
    const c = await hitRateLimit(handle.db, key, MINUTE);
    expect([a.points, b.points, c.points]).toEqual([1, 2, 3]);
    expect(b.resetAt.getTime()).toBe(a.resetAt.getTime());
    expect(c.resetAt.getTime()).toBe(a.resetAt.getTime());
    expect(await storedRow(key)).toEqual({ points: 3, expiresAt: a.resetAt });
  });

  it('sets resetAt to about now + windowMs when the window opens', async () => {
    const before = Date.now();
    const hit = await hitRateLimit(handle.db, freshKey('reset-at'), 10 * MINUTE);
    const after = Date.now();
    expect(hit.resetAt).toBeInstanceOf(Date);
    // Database and test share the clock; allow a little slack for transaction start time.
    expect(hit.resetAt.getTime()).toBeGreaterThanOrEqual(before + 10 * MINUTE - 2_000);
    expect(hit.resetAt.getTime()).toBeLessThanOrEqual(after + 10 * MINUTE + 2_000);
  });

  it('keeps separate keys independent', async () => {
    const k1 = freshKey('independent');
    const k2 = freshKey('independent');
    await hitRateLimit(handle.db, k1, MINUTE);
    await hitRateLimit(handle.db, k1, MINUTE);
    expect((await hitRateLimit(handle.db, k2, MINUTE)).points).toBe(1);
    expect((await hitRateLimit(handle.db, k1, MINUTE)).points).toBe(3);
    expect((await hitRateLimit(handle.db, k2, MINUTE)).points).toBe(2);
  });

  it('restarts the count at 1 with a later resetAt once the window has expired (moved into the past)', async () => {
    const key = freshKey('expired');
    await hitRateLimit(handle.db, key, MINUTE);
    await hitRateLimit(handle.db, key, MINUTE);
    await handle.db.execute(
      sql`update rate_limits set expires_at = now() - interval '1 second' where key = ${key}`,
    );
    const expiredAt = (await storedRow(key))!.expiresAt;

    const fresh = await hitRateLimit(handle.db, key, MINUTE);
    expect(fresh.points).toBe(1);
    expect(fresh.resetAt.getTime()).toBeGreaterThan(expiredAt.getTime() + MINUTE - 2_000);
    expect(fresh.resetAt.getTime()).toBeGreaterThan(Date.now());
    expect((await hitRateLimit(handle.db, key, MINUTE)).points).toBe(2);
  });

  it('honours a sub-second window: resetAt is now + 200 ms, and once that passes the count restarts at 1', async () => {
    const key = freshKey('short-window');
    const before = Date.now();
    const first = await hitRateLimit(handle.db, key, 200);
    const after = Date.now();
    // Not rounded to whole seconds: the window really is 200 ms (a little slack for the clock).
    expect(first.resetAt.getTime()).toBeGreaterThanOrEqual(before + 200 - 100);
    expect(first.resetAt.getTime()).toBeLessThanOrEqual(after + 200 + 100);
    expect((await hitRateLimit(handle.db, key, 200)).points).toBe(2);
    await new Promise((r) => setTimeout(r, 350));
    const next = await hitRateLimit(handle.db, key, 200);
    expect(next.points).toBe(1);
    expect(next.resetAt.getTime()).toBeGreaterThan(first.resetAt.getTime());
  });

  it('is atomic: 20 concurrent hits on one key get the points 1..20 exactly once each', async () => {
    const key = freshKey('concurrent');
    const hits = await Promise.all(Array.from({ length: 20 }, () => hitRateLimit(handle.db, key, MINUTE)));
    expect(hits.map((h) => h.points).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(new Set(hits.map((h) => h.resetAt.getTime())).size).toBe(1);
    expect((await storedRow(key))!.points).toBe(20);
  });

  it('is atomic on an existing key too: 20 concurrent hits after a first one get the points 2..21', async () => {
    const key = freshKey('concurrent-existing');
    expect((await hitRateLimit(handle.db, key, MINUTE)).points).toBe(1);
    const hits = await Promise.all(Array.from({ length: 20 }, () => hitRateLimit(handle.db, key, MINUTE)));
    expect(hits.map((h) => h.points).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 2),
    );
    expect((await storedRow(key))!.points).toBe(21);
  });
});

describe('resetRateLimit', () => {
  it('forgets the key (next hit counts 1) and leaves other keys alone', async () => {
    const key = freshKey('reset');
    const other = freshKey('reset-other');
    await hitRateLimit(handle.db, key, MINUTE);
    await hitRateLimit(handle.db, key, MINUTE);
    await hitRateLimit(handle.db, other, MINUTE);

    await resetRateLimit(handle.db, key);
    expect(await storedRow(key)).toBeUndefined();
    expect((await hitRateLimit(handle.db, key, MINUTE)).points).toBe(1);
    expect((await hitRateLimit(handle.db, other, MINUTE)).points).toBe(2);
  });

  it('is a no-op for an unknown key', async () => {
    await expect(resetRateLimit(handle.db, freshKey('never-hit'))).resolves.toBeUndefined();
  });
});
