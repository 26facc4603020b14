import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from './client';
import { executePrepared } from './prepared';
import { testDb } from './testing/vitest';

let handle: DbHandle;
beforeAll(async () => {
  handle = await testDb();
});
afterAll(async () => {
  await handle?.close();
});

describe('executePrepared', () => {
  it('runs a data-modifying statement with parameters, the same text again from the prepared statement, and inside a transaction', async () => {
    const key = `test:prepared:${Date.now()}`;
    const hit = (db: Parameters<typeof executePrepared>[0]) =>
      executePrepared(
        db,
        sql`with added as (
          insert into rate_limits (key, points, expires_at) values (${key}, 1, now() + interval '1 minute')
          on conflict (key) do update set points = rate_limits.points + 1 returning points)
        select points from added`,
      );
    // 1, then 1 + 1 (the second run reuses the prepared text on postgres.js), then 2 + 1 in a transaction.
    expect((await hit(handle.db)).map((r) => Number((r as { points: number }).points))).toEqual([1]);
    expect((await hit(handle.db)).map((r) => Number((r as { points: number }).points))).toEqual([2]);
    const inTx = await handle.db.transaction((tx) => hit(tx));
    expect(inTx.map((r) => Number((r as { points: number }).points))).toEqual([3]);
  });
});
