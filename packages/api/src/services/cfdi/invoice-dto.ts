import { totalMxn } from '@folio/cfdi';
import type { ListedCfdi } from '@folio/db/queries/cfdis';
import type { z } from 'zod';
import type { EstatusFuente, EstatusSat, Invoice, TipoComprobante, Validacion } from '../../schemas/invoice';

type StatusRow = {
  estatusSat: string | null;
  fechaCancelacion: string | null;
  estatusFuente: string | null;
  estatusFecha: Date | string | null;
};
type StatusFields = {
  estatus_sat: z.infer<typeof EstatusSat>;
  fecha_cancelacion?: string;
  estatus_fuente?: z.infer<typeof EstatusFuente>;
  fecha_estatus?: string;
};

/** Writes the SAT status fields of a CFDI row into `into` (absent ones stay absent). */
export function writeSatStatus(into: Partial<StatusFields>, row: StatusRow): void {
  into.estatus_sat = (row.estatusSat ?? 'desconocido') as StatusFields['estatus_sat'];
  if (row.fechaCancelacion !== null) into.fecha_cancelacion = row.fechaCancelacion;
  if (row.estatusFuente !== null) into.estatus_fuente = row.estatusFuente as StatusFields['estatus_fuente'];
  if (row.estatusFecha !== null) into.fecha_estatus = new Date(row.estatusFecha).toISOString();
}

/** Sets `key` only when the value exists: the contract's optional fields are absent, not null. */
export const opt = <K extends string, V>(key: K, value: V | null | undefined) =>
  (value === null || value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

/** The stored validation plus what the latest payment-status computation found and the currency warning. */
export function validacionOf(
  row: Pick<ListedCfdi, 'validacion' | 'paymentWarnings'>,
  currencyWarning?: string,
): z.infer<typeof Validacion> {
  const v = row.validacion;
  if (!row.paymentWarnings.length && !currencyWarning) return v;
  const extra = currencyWarning ? [currencyWarning] : [];
  return { ...v, advertencias: [...v.advertencias, ...row.paymentWarnings, ...extra] };
}

type KindRow = {
  tipoComprobante: string | null;
  moneda: string;
  tipoCambio: number | string | null;
  total: number | string;
};
type KindFields = {
  tipo_comprobante?: z.infer<typeof TipoComprobante>;
  moneda: string;
  tipo_cambio?: number;
  total_mxn: number | null;
};

/**
 * Writes tipo_comprobante, moneda, tipo_cambio and total_mxn of a listing row into `into` (a manual
 * expense has no TipoDeComprobante and is in MXN); returns the warning when it cannot be converted.
 * Assigned one by one: a listing maps 50 rows per request, and spreads or keyed stores cost more than
 * the rest of the mapping.
 */
export function writeCfdiKind(into: KindFields, row: KindRow): string | undefined {
  const tipoCambio = row.tipoCambio === null ? null : Number(row.tipoCambio);
  const converted = totalMxn(Number(row.total), row.moneda, tipoCambio);
  if (row.tipoComprobante !== null)
    into.tipo_comprobante = row.tipoComprobante as KindFields['tipo_comprobante'];
  into.moneda = row.moneda;
  if (tipoCambio !== null) into.tipo_cambio = tipoCambio;
  into.total_mxn = converted.totalMxn;
  return converted.advertencia;
}

/** The same fields as an object of their own, with the warning. */
export function cfdiKind(row: KindRow) {
  const fields = {} as KindFields;
  const advertencia = writeCfdiKind(fields, row);
  return { fields, advertencia };
}

/**
 * An invoice as the contract shows it; optional fields are absent, not null. Built by assignment, one
 * named field at a time: a listing maps 50 of these per request, and spreading `opt()`s or storing
 * through a variable key cost several times as much.
 */
export function toInvoice(row: ListedCfdi, profile?: { id: string; nombre: string; rfc: string }): Invoice {
  const inv = {
    id: row.id,
    profile_id: row.profileId,
    uuid: row.uuid,
    fecha: row.fecha,
    mes: row.mes,
    año: row.anio,
    total: row.total,
    subtotal: row.subtotal,
    iva: row.iva,
  } as Invoice;
  if (row.ivaAmount !== null) inv.iva_amount = row.ivaAmount;
  if (row.retencionIvaAmount !== null) inv.retencion_iva_amount = row.retencionIvaAmount;
  if (row.retencionIsrAmount !== null) inv.retencion_isr_amount = row.retencionIsrAmount;
  inv.tipo = row.tipo;
  const advertencia = writeCfdiKind(inv, row);
  inv.rfc_emisor = row.rfcEmisor;
  inv.nombre_emisor = row.nombreEmisor;
  if (row.regimenFiscalEmisor !== null) inv.regimen_fiscal_emisor = row.regimenFiscalEmisor;
  inv.rfc_receptor = row.rfcReceptor;
  inv.nombre_receptor = row.nombreReceptor;
  if (row.regimenFiscalReceptor !== null) inv.regimen_fiscal_receptor = row.regimenFiscalReceptor;
  if (row.concepto !== null) inv.concepto = row.concepto;
  inv.pagos = row.pagos as Invoice['pagos'];
  inv.complemento_pago = (row.complementoPago as Invoice['complemento_pago']) ?? null;
  inv.validacion = validacionOf(row, advertencia);
  // A credit note is not paid: it reduces what is owed.
  // A credit note and a traslado have no payment status of their own (tax-rules §3).
  if (row.tipoComprobante === 'E' || row.tipoComprobante === 'T') inv.estadoPago = null;
  else if (row.estadoPago !== null) inv.estadoPago = row.estadoPago as Invoice['estadoPago'];
  writeSatStatus(inv, row);
  if (profile) inv.profile = profile;
  inv.created_at = row.createdAt.toISOString();
  inv.updated_at = row.updatedAt.toISOString();
  return inv;
}
