import type { Expense } from '../../schemas/expense';
import type { Invoice } from '../../schemas/invoice';

/** A cell's value; `date` columns hold the CFDI's local date-time text (no zone), as listed. */
export type Cell = string | number | null | undefined;

export interface Column<R> {
  header: string;
  kind: 'text' | 'number' | 'date';
  value: (row: R) => Cell;
}

/** A listed document plus the fields an export adds to the listing's shape. */
export type Exported<T> = T & { descuento?: number | null };

const yesNo = (b: boolean | undefined) => (b === undefined ? undefined : b ? 'Sí' : 'No');

/** A CFDI's SAT status (docs/sat-status.md): a cancelled one is listed, and says so. */
function satStatus<R extends Exported<Invoice | Expense>>(): Column<R>[] {
  return [
    { header: 'Estatus SAT', kind: 'text', value: (r) => r.estatus_sat },
    { header: 'Fecha de cancelación', kind: 'date', value: (r) => r.fecha_cancelacion },
  ];
}

/** The money and tax columns invoices and expenses share, in the listing's fields. */
function amounts<R extends Exported<Invoice | Expense>>(): Column<R>[] {
  return [
    { header: 'Moneda', kind: 'text', value: (r) => r.moneda },
    { header: 'Tipo de cambio', kind: 'number', value: (r) => r.tipo_cambio },
    { header: 'Subtotal', kind: 'number', value: (r) => r.subtotal },
    { header: 'Descuento', kind: 'number', value: (r) => r.descuento },
    { header: 'Tasa IVA %', kind: 'number', value: (r) => r.iva },
    { header: 'IVA', kind: 'number', value: (r) => r.iva_amount },
    { header: 'Retención IVA', kind: 'number', value: (r) => r.retencion_iva_amount },
    { header: 'Retención ISR', kind: 'number', value: (r) => r.retencion_isr_amount },
    { header: 'Total', kind: 'number', value: (r) => r.total },
    { header: 'Total MXN', kind: 'number', value: (r) => r.total_mxn },
  ];
}

export const INVOICE_COLUMNS: Column<Exported<Invoice>>[] = [
  { header: 'UUID', kind: 'text', value: (r) => r.uuid },
  { header: 'Fecha', kind: 'date', value: (r) => r.fecha },
  { header: 'RFC emisor', kind: 'text', value: (r) => r.rfc_emisor },
  { header: 'Nombre emisor', kind: 'text', value: (r) => r.nombre_emisor },
  { header: 'Régimen emisor', kind: 'text', value: (r) => r.regimen_fiscal_emisor },
  { header: 'RFC receptor', kind: 'text', value: (r) => r.rfc_receptor },
  { header: 'Nombre receptor', kind: 'text', value: (r) => r.nombre_receptor },
  { header: 'Régimen receptor', kind: 'text', value: (r) => r.regimen_fiscal_receptor },
  { header: 'Tipo', kind: 'text', value: (r) => r.tipo },
  { header: 'Tipo de comprobante', kind: 'text', value: (r) => r.tipo_comprobante },
  { header: 'Concepto', kind: 'text', value: (r) => r.concepto },
  ...amounts<Exported<Invoice>>(),
  { header: 'Estado de pago', kind: 'text', value: (r) => r.estadoPago?.estado },
  { header: 'Pagado', kind: 'number', value: (r) => r.estadoPago?.totalPagado },
  { header: 'Saldo', kind: 'number', value: (r) => r.estadoPago?.saldoPendiente },
  ...satStatus<Exported<Invoice>>(),
  { header: 'Válido', kind: 'text', value: (r) => yesNo(r.validacion.valido) },
  { header: 'Advertencias', kind: 'text', value: (r) => r.validacion.advertencias.join('; ') },
  { header: 'Errores', kind: 'text', value: (r) => r.validacion.errores.join('; ') },
];

export const EXPENSE_COLUMNS: Column<Exported<Expense>>[] = [
  { header: 'Origen', kind: 'text', value: (r) => r.tipo_origen },
  { header: 'UUID', kind: 'text', value: (r) => r.uuid },
  { header: 'Fecha', kind: 'date', value: (r) => r.fecha },
  { header: 'RFC emisor', kind: 'text', value: (r) => r.rfc_emisor },
  { header: 'Nombre emisor', kind: 'text', value: (r) => r.nombre_emisor },
  { header: 'RFC receptor', kind: 'text', value: (r) => r.rfc_receptor },
  { header: 'Nombre receptor', kind: 'text', value: (r) => r.nombre_receptor },
  { header: 'Tipo', kind: 'text', value: (r) => r.tipo },
  { header: 'Tipo de comprobante', kind: 'text', value: (r) => r.tipo_comprobante },
  { header: 'Categoría', kind: 'text', value: (r) => r.categoria },
  { header: 'Concepto', kind: 'text', value: (r) => r.concepto },
  ...amounts<Exported<Expense>>(),
  { header: 'Pagado', kind: 'text', value: (r) => yesNo(r.is_paid) },
  { header: 'Fecha de pago', kind: 'date', value: (r) => r.payment_date },
  ...satStatus<Exported<Expense>>(),
];
