// The back-fill of the tax detail (docs/cfdi.md#taxes-by-rate): rows stored before it existed are
// found by `taxes_version IS NULL` and updated in batches, one statement per table and batch.
import { eq, getTableColumns, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../client';
import { cfdis, cfdiXml, paymentApplications } from '../schema';

export { TAXES_VERSION } from '../schema';

/**
 * Up to `limit` CFDI still without tax detail, with their stored XML, locked for this transaction.
 * SKIP LOCKED: two processes back-filling at once take different rows instead of waiting or
 * deriving the same ones twice.
 */
export function pendingTaxDetail(tx: Tx, limit: number) {
  return tx
    .select({ id: cfdis.id, xml: cfdiXml.xml })
    .from(cfdis)
    .leftJoin(cfdiXml, eq(cfdiXml.cfdiId, cfdis.id))
    .where(isNull(cfdis.taxesVersion))
    .orderBy(cfdis.id)
    .limit(limit)
    .for('update', { of: cfdis, skipLocked: true });
}

type Columns<T extends PgTable> = T['$inferInsert'];

export type CfdiTaxDetail = Required<Pick<Columns<typeof cfdis>, 'id' | 'taxesVersion'>> &
  Partial<Columns<typeof cfdis>>;

/** Writes each row's fields (all rows with the same keys) onto the CFDI with its id. */
export async function saveTaxDetail(tx: Tx, rows: CfdiTaxDetail[]): Promise<void> {
  await updateFromRecords(tx, cfdis, ['id'], rows);
}

export type ApplicationDetail = Required<
  Pick<Columns<typeof paymentApplications>, 'repCfdiId' | 'relatedUuid' | 'numParcialidad'>
> &
  Partial<Columns<typeof paymentApplications>>;

/**
 * Writes each row's fields onto the payment application of that complement, invoice and
 * installment (the import keeps one application per pair).
 */
export async function saveApplicationDetail(tx: Tx, rows: ApplicationDetail[]): Promise<void> {
  await updateFromRecords(tx, paymentApplications, ['repCfdiId', 'relatedUuid', 'numParcialidad'], rows);
}

/**
 * `UPDATE table SET … FROM jsonb_to_recordset($rows)`: one statement for a whole batch, the keys
 * matching each row and every other field of the first row set (its SQL type from the schema).
 */
async function updateFromRecords<T extends PgTable>(
  tx: Tx,
  table: T,
  keys: string[],
  rows: Record<string, unknown>[],
): Promise<void> {
  if (!rows.length) return;
  const columns = getTableColumns(table);
  const fields = Object.keys(rows[0]!);
  const name = (field: string) => sql.identifier(columns[field]!.name);
  const list = (parts: SQL[], by: string) => sql.join(parts, sql.raw(by));
  const definitions = list(
    fields.map((f) => sql`${name(f)} ${sql.raw(columns[f]!.getSQLType())}`),
    ', ',
  );
  const sets = list(
    fields.filter((f) => !keys.includes(f)).map((f) => sql`${name(f)} = v.${name(f)}`),
    ', ',
  );
  const matches = list(
    keys.map((k) => sql`t.${name(k)} = v.${name(k)}`),
    ' and ',
  );
  const records = rows.map((r) => Object.fromEntries(fields.map((f) => [columns[f]!.name, r[f] ?? null])));
  await tx.execute(
    sql`update ${table} as t set ${sets} from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as v(${definitions}) where ${matches}`,
  );
}
