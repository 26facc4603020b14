import { type CfdiListFilter, findCfdi, findCfdiXml, listCfdis } from '@folio/db/queries/cfdis';
import type { Context } from '../../context';
import { forbidden, notFound } from '../../errors';
import { paginationOf } from '../pagination';
import { listOfProfile } from '../profiles/listing-access';
import { toInvoice } from './invoice-dto';

export interface InvoiceQuery {
  profileId?: string;
  mes?: number;
  año?: number;
  regimen_fiscal?: string;
  page: number;
  limit: number;
  search?: string;
  tipo_comprobante?: 'I' | 'E' | 'P' | 'T' | 'N';
  estatus_sat?: 'vigente' | 'cancelado' | 'desconocido';
}

/** The query's filters as the SQL takes them (the listing and its export select the same rows). */
export function invoiceFilter(
  userId: string,
  profileId: string | undefined,
  q: Omit<InvoiceQuery, 'page' | 'limit' | 'profileId'>,
): CfdiListFilter {
  return {
    userId,
    side: 'income',
    profileId,
    mes: q.mes,
    anio: q.año,
    regimenFiscal: q.regimen_fiscal,
    search: q.search,
    tipoComprobante: q.tipo_comprobante,
    estatusSat: q.estatus_sat,
  };
}

/** The caller's income CFDI (payment complements included), newest first. */
export async function listInvoices(ctx: Context, userId: string, q: InvoiceQuery) {
  const { rows, total, exact } = await listOfProfile(ctx, userId, q.profileId, (profileId) =>
    listCfdis(ctx.db, invoiceFilter(userId, profileId, q), {
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
    }),
  );
  return {
    data: rows.map((r) => toInvoice(r.cfdi, r.profile)),
    pagination: paginationOf(total, q.page, q.limit, exact),
  };
}

/** A CFDI the caller owns (through its profile): missing → 404, someone else's → 403. */
export async function ownedCfdi(ctx: Context, userId: string, id: string) {
  const found = await findCfdi(ctx.db, id);
  if (!found) throw notFound('Invoice not found');
  if (found.cfdi.userId !== userId) throw forbidden('You do not have permission to use this invoice');
  return found;
}

export async function getInvoice(ctx: Context, userId: string, id: string) {
  const { cfdi, profile } = await ownedCfdi(ctx, userId, id);
  return toInvoice(cfdi, profile);
}

export async function getInvoiceXml(ctx: Context, userId: string, id: string): Promise<string> {
  await ownedCfdi(ctx, userId, id);
  const xml = await findCfdiXml(ctx.db, id);
  if (xml === undefined) throw notFound('Original XML not found');
  return xml;
}
