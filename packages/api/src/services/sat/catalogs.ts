import { findSatProduct, listFiscalRegimes } from '@folio/db/queries/catalogs';
import type { Context } from '../../context';
import { notFound } from '../../errors';
import { toFiscalRegime, toSatProduct } from '../../schemas/sat';

/** One c_ClaveProdServ record by its 8-digit code; 404 when the catalog has no such code. */
export async function getSatProduct(ctx: Context, id: string) {
  const row = await findSatProduct(ctx.db, id);
  if (!row) throw notFound(`SAT code ${id} not found`);
  return toSatProduct(row);
}

/** c_RegimenFiscal, optionally only the regimes that apply to one person type. */
export async function listRegimes(ctx: Context, tipoPersona?: 'FISICA' | 'MORAL') {
  return (await listFiscalRegimes(ctx.db, tipoPersona)).map(toFiscalRegime);
}
