import postgres from 'postgres';
import { describe, expect, it } from 'vitest';

// postgres.js 3.4.9 sends a transaction's BEGIN down a busy connection's pipeline, and when that
// BEGIN was the query that filled it the connection was never reserved: the transaction failed with
// UNSAFE_TRANSACTION (a 500 in bench:load's overloaded run, docs/benchmarks.md). patches/ fixes it
// (porsager/postgres#823, #1189); this pins the patch. The pipeline is 2 deep here so that a few
// queries fill it; the server's pool keeps the driver's default of 100, reached under overload.
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('transactions on a saturated pool (PostgreSQL only)', () => {
  it('a transaction whose BEGIN fills a busy connection still gets that connection to itself', async () => {
    // max_pipeline is a driver option its type declarations leave out.
    const options = { max: 3, max_pipeline: 2, onnotice: () => {} };
    const sql = postgres(url!, options);
    try {
      const failures: unknown[] = [];
      let committed = 0;
      for (let round = 0; round < 5; round++) {
        // Every connection open, then each held by a slow query so that what follows is pipelined.
        // `execute()` sends a query now, in this order (a query otherwise waits for the next tick,
        // while sql.begin sends its BEGIN at once).
        await Promise.all([sql`select 1`, sql`select 1`, sql`select 1`]);
        const work: Promise<unknown>[] = [0, 1, 2].map(() => sql`select pg_sleep(0.1)`.execute());
        for (let i = 0; i < 5; i++) {
          work.push(sql`select 1`.execute());
          work.push(
            sql
              .begin(async (tx) => {
                // One transaction: the same transaction id from its first statement to its last.
                const [first] = await tx`select pg_current_xact_id()::text as id`;
                const [last] = await tx`select pg_current_xact_id()::text as id`;
                expect(last!.id).toBe(first!.id);
                committed++;
              })
              .catch((err: unknown) => failures.push(err)),
          );
        }
        await Promise.all(work);
      }
      expect(failures).toEqual([]);
      expect(committed).toBe(25);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});
