// The SQL GET /api/invoices issues, as text + parameters: built by the very builders listCfdis uses
// (cfdiPage, listedCount and listParameters in packages/db/src/queries/cfdis.ts) on a mock postgres-js
// database, so the baseline server and the EXPLAINs run the real statements.
import { cfdiPage, listedCount, listParameters } from '@folio/db/queries/cfdis';
import * as schema from '@folio/db/schema';
import { is, Placeholder } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';

const db = drizzle.mock({ schema });

export type ListFilter =
  | { kind: 'filtered'; userId: string; profileId: string; mes: number; anio: number }
  | { kind: 'search'; userId: string; search: string };

export interface Statement {
  sql: string;
  params: unknown[];
}

/** A statement's text once, and a function giving its parameters for a filter's values. */
export interface Template {
  sql: string;
  bind(values: Record<string, unknown>): unknown[];
}

const template = (q: { sql: string; params: unknown[] }): Template => ({
  sql: q.sql,
  bind: (values) => q.params.map((p) => (is(p, Placeholder) ? values[p.name] : p)),
});

const filterOf = (f: ListFilter) =>
  f.kind === 'filtered'
    ? { userId: f.userId, side: 'income' as const, profileId: f.profileId, mes: f.mes, anio: f.anio }
    : { userId: f.userId, side: 'income' as const, search: f.search };

/**
 * The statement templates of a filter's shape (which filters are set, and whether a search is
 * words, and whether it may be a UUID fragment), built once per shape, as listCfdis prepares them.
 */
export function listTemplates(f: ListFilter) {
  const { bound, shape } = listParameters(filterOf(f));
  let t = templates.get(shape);
  if (!t) {
    t = { rows: template(cfdiPage(db, bound).toSQL()), total: template(listedCount(db, bound).toSQL()) };
    templates.set(shape, t);
  }
  return t;
}
const templates = new Map<string, { rows: Template; total: Template }>();

export function listValues(f: ListFilter, page = { limit: 50, offset: 0 }) {
  return { ...listParameters(filterOf(f)).values, ...page };
}

/** The statements a filter runs: the page (carrying the total) and the count alone. */
export function listQueries(f: ListFilter): { rows: Statement; total: Statement } {
  const t = listTemplates(f);
  const values = listValues(f);
  return {
    rows: { sql: t.rows.sql, params: t.rows.bind(values) },
    total: { sql: t.total.sql, params: t.total.bind(values) },
  };
}

/** `$1`-style SQL with its literal values inlined, for EXPLAIN. */
export function inline(s: Statement): string {
  return s.sql.replace(/\$(\d+)/g, (_, i: string) => {
    const v = s.params[Number(i) - 1];
    return typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
  });
}
