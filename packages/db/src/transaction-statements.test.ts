import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { rowsOf } from './client';
import { preparingTransactions } from './transaction-statements';

// A transaction's statements go prepared (one round trip each after their first on a connection,
// instead of two), up to a cap of distinct texts; outside a transaction drizzle's choice stands.
// PostgreSQL only: PGlite has no wire protocol. pg_prepared_statements lists what the session holds.
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('statements of a transaction (PostgreSQL only)', () => {
  it('are prepared on their connection, savepoints included, until the cap of distinct texts; outside a transaction they stay unnamed', async () => {
    const pool = postgres(url!, { max: 1, onnotice: () => {} });
    // Three texts: two selects in the transaction, then the listing of prepared statements.
    const db = drizzle(preparingTransactions(pool, 3));
    try {
      const value = async (run: Promise<unknown>) => Object.values(rowsOf(await run)[0] as object)[0];
      expect(await value(db.execute(sql`select ${1}::int as one`))).toBe(1);
      const held = await db.transaction(async (tx) => {
        expect(await value(tx.execute(sql`select ${2}::int as two`))).toBe(2);
        await tx.transaction(async (inner) => {
          expect(await value(inner.execute(sql`select ${3}::int as three`))).toBe(3);
        });
        const list = () =>
          tx.execute(
            sql`select statement from pg_prepared_statements where statement like 'select $1::int as %'`,
          );
        await list();
        // A fourth text: past the cap, so sent unnamed.
        expect(await value(tx.execute(sql`select ${4}::int as four`))).toBe(4);
        return rowsOf(await list()).map((r) => (r as { statement: string }).statement);
      });
      expect(held.sort()).toEqual(['select $1::int as three', 'select $1::int as two']);
    } finally {
      await pool.end();
    }
  });

  it('plan each run for its parameters (no generic plan), in a savepoint too, and only until the transaction ends', async () => {
    const pool = postgres(url!, { max: 1, onnotice: () => {} });
    const db = drizzle(preparingTransactions(pool));
    const mode = async (run: Pick<typeof db, 'execute'>) =>
      (
        rowsOf(await run.execute(sql`select current_setting('plan_cache_mode') as mode`))[0] as {
          mode: string;
        }
      ).mode;
    try {
      const inside = await db.transaction(async (tx) => [
        await mode(tx),
        await tx.transaction((inner) => mode(inner)),
      ]);
      expect(inside).toEqual(['force_custom_plan', 'force_custom_plan']);
      // The same connection (the pool has one) after the commit: the server's default again.
      expect(await mode(db)).toBe('auto');
    } finally {
      await pool.end();
    }
  });
});
