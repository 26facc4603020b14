import type { CfdiRow } from '@folio/db/queries/cfdis';
import { z } from 'zod';

export const Tipo = z.enum(['PUE', 'PPD', 'COMPLEMENTO_PAGO']);

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
    tieneComplementos: z.boolean(),
    tienePagosManuales: z.boolean(),
  })
  .meta({ id: 'EstadoPago' });

export const Invoice = z
  .object({
    id: z.string(),
    profile_id: z.string(),
    uuid: z.string(),
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
    estadoPago: EstadoPago.optional(),
    profile: z.object({ id: z.string(), nombre: z.string(), rfc: z.string() }).optional(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.infer<typeof Invoice>;

/** Sets `key` only when the value exists: the spec's optional fields are absent, not null. */
export const opt = <K extends string, V>(key: K, value: V | null | undefined) =>
  (value === null || value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

/** The stored validation plus what the latest payment-status computation found. */
export function validacionOf(row: CfdiRow): z.infer<typeof Validacion> {
  const v = row.validacion;
  return { ...v, advertencias: [...v.advertencias, ...row.paymentWarnings] };
}

export function toInvoice(row: CfdiRow, profile?: { id: string; nombre: string; rfc: string }): Invoice {
  return {
    id: row.id,
    profile_id: row.profileId,
    uuid: row.uuid,
    fecha: row.fecha,
    mes: row.mes,
    año: row.anio,
    total: row.total,
    subtotal: row.subtotal,
    iva: row.iva,
    ...opt('iva_amount', row.ivaAmount),
    ...opt('retencion_iva_amount', row.retencionIvaAmount),
    ...opt('retencion_isr_amount', row.retencionIsrAmount),
    tipo: row.tipo,
    rfc_emisor: row.rfcEmisor,
    nombre_emisor: row.nombreEmisor,
    ...opt('regimen_fiscal_emisor', row.regimenFiscalEmisor),
    rfc_receptor: row.rfcReceptor,
    nombre_receptor: row.nombreReceptor,
    ...opt('regimen_fiscal_receptor', row.regimenFiscalReceptor),
    ...opt('concepto', row.concepto),
    pagos: row.pagos as Invoice['pagos'],
    complemento_pago: (row.complementoPago as Invoice['complemento_pago']) ?? null,
    validacion: validacionOf(row),
    ...opt('estadoPago', row.estadoPago as Invoice['estadoPago']),
    ...opt('profile', profile),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
