import { findSatProduct, listFiscalRegimes } from '@folio/db/queries/catalogs';
import type { Context } from '../../context';
import { notFound } from '../../errors';
import { toFiscalRegime, toSatProduct } from './sat-dto';

/**
 * One c_ClaveProdServ record by its 8-digit code; 404 when the catalog has no such code, and when it
 * no longer has it: the record's `fecha_fin_vigencia: null` says "currently valid", which a code
 * the SAT dropped is not (its last record is still on the caller's favorites, flagged).
 */
export async function getSatProduct(ctx: Context, id: string) {
  const row = await findSatProduct(ctx.db, id);
  if (!row) throw notFound(`SAT code ${id} not found`);
  if (row.removedAt) throw codeRemoved(id, row.removedAt);
  return toSatProduct(row);
}

/** 404 for a code the SAT dropped: said as such, not as a code that never existed. */
export const codeRemoved = (id: string, removedAt: Date) =>
  notFound(
    `SAT code ${id} is no longer in the SAT catalog (removed by the catalog import of ${removedAt.toISOString().slice(0, 10)})`,
  );

/** c_RegimenFiscal, optionally only the regimes that apply to one person type. */
export async function listRegimes(ctx: Context, tipoPersona?: 'FISICA' | 'MORAL') {
  return (await listFiscalRegimes(ctx.db, tipoPersona)).map(toFiscalRegime);
}
