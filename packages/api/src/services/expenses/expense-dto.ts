import type { ExpenseListRow, ManualExpenseRow } from '@folio/db/queries/expenses';
import type { Expense } from '../../schemas/expense';
import { cfdiKind, opt, writeSatStatus } from '../cfdi/invoice-dto';

/** One listing row (from a received CFDI or typed in) in the contract's shape; absent fields are omitted. */
export function toExpense(row: Omit<ExpenseListRow, 'descuento'>): Expense {
  const expense: Expense = {
    id: row.id,
    profile_id: row.profileId,
    tipo_origen: row.origin,
    fecha: row.fecha,
    mes: row.mes,
    año: row.anio,
    total: Number(row.total),
    subtotal: Number(row.subtotal),
    iva: Number(row.iva),
    ...opt('iva_amount', row.ivaAmount === null ? null : Number(row.ivaAmount)),
    ...opt('retencion_iva_amount', row.retencionIvaAmount === null ? null : Number(row.retencionIvaAmount)),
    ...opt('retencion_isr_amount', row.retencionIsrAmount === null ? null : Number(row.retencionIsrAmount)),
    ...opt('is_paid', row.isPaid),
    ...opt('payment_date', row.paymentDate),
    ...opt('concepto', row.concepto),
    ...opt('categoria', row.categoria),
    ...opt('uuid', row.uuid),
    ...opt('tipo', row.tipo),
    ...cfdiKind(row).fields,
    ...opt('rfc_emisor', row.rfcEmisor),
    ...opt('nombre_emisor', row.nombreEmisor),
    ...opt('rfc_receptor', row.rfcReceptor),
    ...opt('nombre_receptor', row.nombreReceptor),
    created_at: new Date(row.createdAt).toISOString(),
    updated_at: new Date(row.updatedAt).toISOString(),
  };
  if (row.estatusSat !== null) writeSatStatus(expense, row);
  return expense;
}

/** A manual expense as stored, in the contract's shape: no CFDI behind it, in pesos. */
export const toManualExpense = (row: ManualExpenseRow): Expense => ({
  ...toExpense({
    ...row,
    origin: 'MANUAL',
    retencionIvaAmount: null,
    retencionIsrAmount: null,
    uuid: null,
    tipo: null,
    tipoComprobante: null,
    moneda: 'MXN',
    tipoCambio: null,
    rfcReceptor: null,
    nombreReceptor: null,
    estatusSat: null,
    fechaCancelacion: null,
    estatusFuente: null,
    estatusFecha: null,
  }),
  ...opt('tipo_tercero', row.tipoTercero),
  ...opt('id_fiscal', row.idFiscal),
  ...opt('pais', row.pais),
  ...opt('uuid_cfdi', row.uuidCfdi),
  ...opt('pedimento', row.pedimento),
  ...(row.proveedorExtranjeroDigital && { proveedor_extranjero_digital: true }),
  ...opt('forma_pago', row.formaPago),
  ...opt('uso_iva', row.usoIva),
});
