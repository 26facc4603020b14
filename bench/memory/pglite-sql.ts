// The few postgres.js calls bench/invoice-list/seed.ts makes (tagged template, `unsafe`, `begin`),
// answered by a PGlite instance, so the same set-based seed fills an embedded database.
import type { DbHandle } from '@folio/db';
import type { Sql } from 'postgres';

type PGlite = NonNullable<DbHandle['pglite']>;
type Runner = Pick<PGlite, 'query'>;

export function pgliteSql(pg: PGlite): Sql {
  return over(pg, (fn) => pg.transaction((tx) => fn(over(tx, undefined))));
}

function over(db: Runner, begin: ((fn: (tx: Sql) => Promise<unknown>) => Promise<unknown>) | undefined): Sql {
  const run = async (text: string, params: unknown[] = []) => (await db.query(text, params)).rows;
  const tagged = (strings: TemplateStringsArray, ...values: unknown[]) =>
    run(
      strings.reduce((text, s, i) => `${text}$${i}${s}`),
      values,
    );
  return Object.assign(tagged, { unsafe: run, begin }) as unknown as Sql;
}
