// The back-fill of the tax detail (docs/cfdi.md#taxes-by-rate, #facts): rows stored before it existed,
// or derived by an older version, are found by `taxes_version` and updated in batches, one statement per table and batch.
import { eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../client';
import { cfdis, cfdiXml, paymentApplications, pendingTaxes } from '../schema';
import { updateFromRecords } from './recordset';

export { TAXES_VERSION } from '../schema';

/**
 * Up to `limit` CFDI without the current tax detail, with their stored XML, locked for this transaction.
 * SKIP LOCKED: two processes back-filling at once take different rows instead of waiting or
 * deriving the same ones twice.
 */
export function pendingTaxDetail(tx: Tx, limit: number) {
  return tx
    .select({ id: cfdis.id, profileId: cfdis.profileId, xml: cfdiXml.xml })
    .from(cfdis)
    .leftJoin(cfdiXml, eq(cfdiXml.cfdiId, cfdis.id))
    .where(pendingTaxes(cfdis.taxesVersion))
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
