import { createHash } from 'node:crypto';
import type { DbHandle, Executor } from '@folio/db';
import { executeNumbered } from '@folio/db/queries/numbered-statement';
import type PgBoss from 'pg-boss';

// pg-boss runs every statement through a `Db` with one method, `executeSql(text, values)`. On
// PostgreSQL it uses its own `pg` pool; these adapters let it run on the embedded PGlite and inside
// a caller's drizzle transaction (where an enqueue must commit or roll back with the caller's rows).

type PGliteInstance = NonNullable<DbHandle['pglite']>;

/**
 * pg-boss on PGlite's one connection. Its schema changes come as one multi-statement string with no
 * parameters (`BEGIN; … COMMIT;`), which only the simple protocol (`exec`) runs; everything else is
 * one parameterised statement (`query`). A failed multi-statement string leaves its explicit
 * transaction open, which on a single connection would block every later statement: roll it back.
 */
export function pgliteDb(pg: PGliteInstance): PgBoss.Db {
  return {
    async executeSql(text, values) {
      if (values?.length) {
        const res = await pg.query(
          text,
          values.map((v) => (v === undefined ? null : v)),
        );
        return { rows: res.rows };
      }
      try {
        const results = await pg.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      } catch (err) {
        await pg.exec('ROLLBACK').catch(() => {});
        throw err;
      }
    },
  };
}

/** pg-boss inside a drizzle transaction (sending a job, reading one), on either driver. */
export function executorDb(ex: Executor): PgBoss.Db {
  return { executeSql: async (text, values) => ({ rows: await executeNumbered(ex, text, values) }) };
}

/** A UUID that is the same for the same parts: a job id that makes sending twice a no-op. */
export function stableJobId(...parts: string[]): string {
  return asUuid(createHash('sha256').update(parts.join('\u0000')).digest('hex'));
}

/**
 * `stableJobId` whose first 48 bits are `at` in milliseconds, as in a UUIDv7: the queue takes jobs
 * created in the same instant (PGlite's clock has millisecond steps) in id order, so jobs for
 * older things run first.
 */
export function orderedJobId(at: Date, ...parts: string[]): string {
  return asUuid(
    at.getTime().toString(16).padStart(12, '0').slice(-12) +
      stableJobId(...parts)
        .replaceAll('-', '')
        .slice(12),
  );
}

/** 32 hex digits as a UUID: version 8 (custom) and the RFC 4122 variant. */
function asUuid(h: string): string {
  const variant = ((Number.parseInt(h[16]!, 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
