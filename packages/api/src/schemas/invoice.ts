import { totalMxn } from '@folio/cfdi';
import type { ListedCfdi } from '@folio/db/queries/cfdis';
import { z } from 'zod';
import { Timestamp, Uuid } from './formats';

export const Tipo = z.enum(['PUE', 'PPD', 'COMPLEMENTO_PAGO']);
/** c_TipoDeComprobante: I ingreso, E egreso (credit note), P pago, T traslado, N nómina. */
export const TipoComprobante = z.enum(['I', 'E', 'P', 'T', 'N']);

/** Additive fields of invoices and expenses from a CFDI (issue 12). */
export const cfdiKindFields = {
  tipo_comprobante: TipoComprobante.describe(
    'TipoDeComprobante: I ingreso, E egreso (nota de crédito: no payment status of its own), P pago, T traslado, N nómina',
  ),
  moneda: z.string().describe('Moneda of the CFDI (ISO 4217; XXX for payment complements)'),
  tipo_cambio: z.number().optional().describe('TipoCambio: MXN per unit of moneda, as the CFDI states it'),
  total_mxn: z
    .number()
    .nullable()
    .describe(
      'total in MXN: total × tipo_cambio (= total for MXN); null when a foreign-currency CFDI lacks TipoCambio',
    ),
};

export const Pago = z.object({
  fechaPago: z.string(),
  formaPago: z.string(),
  monedaPago: z.string(),
  monto: z.number(),
  numOperacion: z.string().optional(),
});

const FacturaRelacionada = z.object({
  uuid: z.string(),
  monedaDR: z.string(),
  tipoCambioDR: z.number(),
  metodoPagoDR: z.string(),
  numParcialidad: z.number(),
  impSaldoAnt: z.number(),
  impPagado: z.number(),
  impSaldoInsoluto: z.number(),
});

export const ComplementoPago = z
  .object({
    fechaPago: z.string(),
    formaPago: z.string(),
    monedaPago: z.string(),
    tipoCambio: z.number(),
    monto: z.number(),
    numOperacion: z.string().optional(),
    facturasRelacionadas: z.array(FacturaRelacionada),
  })
  .meta({ id: 'ComplementoPago' });

export const Validacion = z
  .object({
    rfcVerificado: z.boolean(),
    regimenFiscalVerificado: z.boolean(),
    uuidDuplicado: z.boolean(),
    advertencias: z.array(z.string()),
    errores: z.array(z.string()),
    valido: z.boolean(),
  })
  .meta({ id: 'Validacion' });

export const EstadoPago = z
  .object({
    estado: z.enum(['PAGADO', 'PAGO_PARCIAL', 'NO_PAGADO']),
    totalFactura: z.number(),
    totalPagado: z.number(),
    saldoPendiente: z.number(),
    porcentajePagado: z.number(),
    completamentePagado: z.boolean(),
    ultimoSaldoInsoluto: z.number().optional(),
    notasCredito: z
      .number()
      .optional()
      .describe(
        'Σ of the credit notes (E, TipoRelacion 01) counted against this PPD invoice; present when > 0',
      ),
    tieneComplementos: z.boolean(),
    tienePagosManuales: z.boolean(),
  })
  .meta({ id: 'EstadoPago' });

export const Invoice = z
  .object({
    id: Uuid,
    profile_id: Uuid,
    uuid: Uuid,
    fecha: z.string(),
    mes: z.number(),
    año: z.number(),
    total: z.number(),
    subtotal: z.number(),
    iva: z.number(),
    iva_amount: z.number().optional(),
    retencion_iva_amount: z.number().optional(),
    retencion_isr_amount: z.number().optional(),
    tipo: Tipo,
    ...cfdiKindFields,
    rfc_emisor: z.string(),
    nombre_emisor: z.string(),
    regimen_fiscal_emisor: z.string().optional(),
    rfc_receptor: z.string(),
    nombre_receptor: z.string(),
    regimen_fiscal_receptor: z.string().optional(),
    concepto: z.string().optional(),
    pagos: z.array(Pago),
    complemento_pago: ComplementoPago.nullable(),
    validacion: Validacion,
    estadoPago: EstadoPago.nullable()
      .optional()
      .describe('null for a credit note (E) and a traslado (T); absent for a payment complement'),
    profile: z.object({ id: Uuid, nombre: z.string(), rfc: z.string() }).optional(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({
    id: 'Invoice',
    example: {
      id: 'a935b1cb-4fb6-44a9-9568-fe63acf05ff1',
      profile_id: 'ee28334c-2b11-4bc9-b72d-c31a246548a9',
      uuid: '6D7434A6-E3F2-47AD-9E4C-08849946AFA0',
      fecha: '2020-01-01T22:40:38',
      mes: 1,
      año: 2020,
      total: 17852.75,
      subtotal: 15390.3,
      iva: 16,
      iva_amount: 2462.45,
      tipo: 'PPD',
      tipo_comprobante: 'I',
      moneda: 'MXN',
      tipo_cambio: 1,
      total_mxn: 17852.75,
      rfc_emisor: 'H&E951128469',
      nombre_emisor: 'HERRERIA & ELECTRICOS S DE CV',
      regimen_fiscal_emisor: '601',
      rfc_receptor: 'KIJ0906199R1',
      nombre_receptor: 'KIJ, S.A DE C.V.',
      regimen_fiscal_receptor: '601',
      concepto: 'RENTA DEL MES DE ENERO 2020',
      pagos: [{ fechaPago: '2020-01-02T22:40:38', formaPago: '03', monedaPago: 'MXN', monto: 10000 }],
      complemento_pago: null,
      validacion: {
        rfcVerificado: true,
        regimenFiscalVerificado: true,
        uuidDuplicado: false,
        advertencias: [],
        errores: [],
        valido: true,
      },
      estadoPago: {
        estado: 'PAGO_PARCIAL',
        totalFactura: 17852.75,
        totalPagado: 10000,
        saldoPendiente: 7852.75,
        porcentajePagado: 56.01,
        completamentePagado: false,
        ultimoSaldoInsoluto: 7852.75,
        tieneComplementos: true,
        tienePagosManuales: false,
      },
      profile: {
        id: 'ee28334c-2b11-4bc9-b72d-c31a246548a9',
        nombre: 'Herrería y Eléctricos',
        rfc: 'H&E951128469',
      },
      created_at: '2025-03-04T17:20:11.000Z',
      updated_at: '2025-03-05T09:02:45.000Z',
    },
  });
export type Invoice = z.infer<typeof Invoice>;

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
  if (profile) inv.profile = profile;
  inv.created_at = row.createdAt.toISOString();
  inv.updated_at = row.updatedAt.toISOString();
  return inv;
}
