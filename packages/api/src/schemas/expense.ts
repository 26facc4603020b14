import type { CfdiRow } from '@folio/db/queries/cfdis';
import { z } from 'zod';
import { opt, Tipo } from './invoice';

export const Expense = z
  .object({
    id: z.string(),
    profile_id: z.string(),
    tipo_origen: z.enum(['XML', 'MANUAL']),
    fecha: z.string(),
    mes: z.number(),
    año: z.number(),
    total: z.number(),
    subtotal: z.number(),
    iva: z.number(),
    iva_amount: z.number().optional(),
    retencion_iva_amount: z.number().optional(),
    retencion_isr_amount: z.number().optional(),
    is_paid: z.boolean().optional(),
    payment_date: z.string().optional(),
    concepto: z.string().optional(),
    categoria: z.string().optional(),
    uuid: z.string().optional(),
    tipo: Tipo.optional(),
    rfc_emisor: z.string().optional(),
    nombre_emisor: z.string().optional(),
    rfc_receptor: z.string().optional(),
    nombre_receptor: z.string().optional(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Expense' });
export type Expense = z.infer<typeof Expense>;

/** An expense filed from a received CFDI. */
export function xmlExpense(row: CfdiRow): Expense {
  return {
    id: row.id,
    profile_id: row.profileId,
    tipo_origen: 'XML',
    fecha: row.fecha,
    mes: row.mes,
    año: row.anio,
    total: row.total,
    subtotal: row.subtotal,
    iva: row.iva,
    ...opt('iva_amount', row.ivaAmount),
    ...opt('retencion_iva_amount', row.retencionIvaAmount),
    ...opt('retencion_isr_amount', row.retencionIsrAmount),
    ...opt('is_paid', row.isPaid),
    ...opt('payment_date', row.paymentDate),
    ...opt('concepto', row.concepto),
    uuid: row.uuid,
    tipo: row.tipo,
    rfc_emisor: row.rfcEmisor,
    nombre_emisor: row.nombreEmisor,
    rfc_receptor: row.rfcReceptor,
    nombre_receptor: row.nombreReceptor,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
