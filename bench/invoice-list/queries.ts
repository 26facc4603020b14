// The SQL GET /api/invoices issues, as text + parameters: built with drizzle exactly as listCfdis
// (packages/db/src/queries/cfdis.ts) builds it (same select shape, cfdiListWhere, order, limit/offset)
// on a mock postgres-js database, so the baseline server and the EXPLAINs run the real statements.
// If listCfdis changes shape, change `listQueries` with it.
import { cfdiListWhere } from '@folio/db/queries/cfdis';
import * as schema from '@folio/db/schema';
import { cfdis, profiles } from '@folio/db/schema';
import { count, desc, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';

const db = drizzle.mock({ schema });

export type ListFilter =
  | { kind: 'filtered'; userId: string; profileId: string; mes: number; anio: number }
  | { kind: 'search'; userId: string; search: string };

export interface Statement {
  sql: string;
  params: unknown[];
}

export function listQueries(f: ListFilter, page = { limit: 50, offset: 0 }) {
  const where = cfdiListWhere(
    f.kind === 'filtered'
      ? { userId: f.userId, side: 'income', profileId: f.profileId, mes: f.mes, anio: f.anio }
      : { userId: f.userId, side: 'income', search: f.search },
  );
  const rows = db
    .select({ cfdi: cfdis, profile: { id: profiles.id, nombre: profiles.nombre, rfc: profiles.rfc } })
    .from(cfdis)
    .innerJoin(profiles, eq(profiles.id, cfdis.profileId))
    .where(where)
    .orderBy(desc(cfdis.fecha), desc(cfdis.id))
    .limit(page.limit)
    .offset(page.offset)
    .toSQL();
  const total = db.select({ n: count() }).from(cfdis).where(where).toSQL();
  return { rows: rows as Statement, total: total as Statement };
}

/** Column names of the row query's select list, in order (cfdis.*, then the profile's three). */
export const ROW_COLUMNS = [
  ...Object.keys(cfdis).filter((k) => k !== 'enableRLS'),
  'profileId_',
  'profileNombre',
  'profileRfc',
];

/** `$1`-style SQL with its literal values inlined, for EXPLAIN. */
export function inline(s: Statement): string {
  return s.sql.replace(/\$(\d+)/g, (_, i: string) => {
    const v = s.params[Number(i) - 1];
    return typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
  });
}
