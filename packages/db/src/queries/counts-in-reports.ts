import { ne, type SQL } from 'drizzle-orm';
import { cfdis } from '../schema';

// A cancelled CFDI counts in no report, listing total or payment status (docs/sat-status.md): the one
// condition every query that sums or pays applies, in its two spellings.

/** The condition on `cfdis` for the query builder. */
export const countsInReports: SQL = ne(cfdis.estatusSat, 'cancelado');

/** The same over the `cfdis` row aliased `alias`, for the report queries' raw SQL. */
export const countsIn = (alias: string) => `${alias}.estatus_sat <> 'cancelado'`;
