import { createHash } from 'node:crypto';
import { type DbHandle, type Executor, rowsOf } from '@folio/db';
import { type SQL, sql } from 'drizzle-orm';
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

/**
 * pg-boss inside a drizzle transaction (or on a drizzle handle), on either driver. Only single
 * statements reach it (sending a job, reading one). Each `$n` becomes a drizzle parameter, one per
 * occurrence; PostgreSQL would type a repeated `$n` from its first use, so every occurrence gets the
 * cast pg-boss gives it somewhere (`$7::integer`), or `text` for a string, as `pg` would infer.
 */
export function executorDb(ex: Executor): PgBoss.Db {
  return {
    async executeSql(text, values = []) {
      const casts = new Map<string, string>();
      for (const m of text.matchAll(/\$(\d+)::([a-z_]+(?:\[\])?)/g))
        if (!casts.has(m[1]!)) casts.set(m[1]!, m[2]!);
      const parts: SQL[] = [];
      let last = 0;
      for (const m of text.matchAll(/\$(\d+)/g)) {
        const v = param(values[Number(m[1]) - 1]);
        const cast = casts.get(m[1]!) ?? (typeof v === 'string' ? 'text' : undefined);
        parts.push(sql.raw(text.slice(last, m.index)), sql`(${v}${sql.raw(cast ? `::${cast}` : '')})`);
        last = m.index + m[0].length;
      }
      parts.push(sql.raw(text.slice(last)));
      return { rows: rowsOf(await ex.execute(sql.join(parts))) };
    },
  };
}

function param(v: unknown): unknown {
  if (v === undefined) return null;
  if (v && typeof v === 'object' && !(v instanceof Date) && !Array.isArray(v)) return JSON.stringify(v);
  return v;
}

/** A UUID that is the same for the same parts: a job id that makes sending twice a no-op. */
export function stableJobId(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  // Version 8 (custom) and the RFC 4122 variant, so it is a well-formed UUID.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
