import { z } from 'zod';
import { Timestamp, Uuid } from './formats';
import { cfdiKindFields, satStatusFields, Tipo } from './invoice';

export const Expense = z
  .object({
    id: Uuid,
    profile_id: Uuid,
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
    uuid: Uuid.optional(),
    tipo: Tipo.optional(),
    tipo_comprobante: cfdiKindFields.tipo_comprobante.optional(),
    moneda: cfdiKindFields.moneda.describe('Moneda of the CFDI; MXN for a manual expense'),
    tipo_cambio: cfdiKindFields.tipo_cambio,
    total_mxn: cfdiKindFields.total_mxn,
    rfc_emisor: z.string().optional(),
    nombre_emisor: z.string().optional(),
    rfc_receptor: z.string().optional(),
    nombre_receptor: z.string().optional(),
    tipo_tercero: z
      .enum(['04', '05'])
      .optional()
      .describe('Manual expense: 05 for a foreign supplier (DIOT)'),
    id_fiscal: z.string().optional().describe('Manual expense: the foreign supplier’s tax id'),
    pais: z.string().optional().describe('Manual expense: the foreign supplier’s country (ISO 3166 alpha-3)'),
    estatus_sat: satStatusFields.estatus_sat
      .optional()
      .describe('The SAT status of a received CFDI (absent for a manual expense)'),
    fecha_cancelacion: satStatusFields.fecha_cancelacion,
    estatus_fuente: satStatusFields.estatus_fuente,
    fecha_estatus: satStatusFields.fecha_estatus,
    uuid_cfdi: Uuid.optional().describe("A manual expense's CFDI UUID (its IVA is creditable)"),
    pedimento: z.string().optional().describe("A manual expense's import pedimento"),
    proveedor_extranjero_digital: z
      .boolean()
      .optional()
      .describe('A foreign digital service under LIVA 18-D'),
    forma_pago: z.string().optional().describe("A manual expense's c_FormaPago"),
    uso_iva: z.enum(['gravado', 'exento']).optional().describe('Used only for taxed or only for exempt acts'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({
    id: 'Expense',
    example: {
      id: '5f0e7a8c-93a2-4c1b-8d2e-0b7d3c6a1f42',
      profile_id: 'ee28334c-2b11-4bc9-b72d-c31a246548a9',
      tipo_origen: 'MANUAL',
      fecha: '2025-03-14',
      mes: 3,
      año: 2025,
      total: 1160,
      subtotal: 1000,
      iva: 16,
      iva_amount: 160,
      concepto: 'Papelería',
      categoria: 'oficina',
      moneda: 'MXN',
      total_mxn: 1160,
      created_at: '2025-03-14T18:30:00.000Z',
      updated_at: '2025-03-14T18:30:00.000Z',
    },
  });
export type Expense = z.infer<typeof Expense>;
