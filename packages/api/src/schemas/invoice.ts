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

export const EstatusSat = z.enum(['vigente', 'cancelado', 'desconocido']).meta({
  id: 'EstatusSat',
  description: "The CFDI's status before SAT as far as Folio knows (docs/sat-status.md)",
});
export const EstatusFuente = z.enum(['metadata', 'consulta', 'usuario', 'sustitucion']);

/** The SAT status of a stored CFDI (tax-rules §1): a `cancelado` one counts in no report or payment status. */
export const satStatusFields = {
  estatus_sat: EstatusSat.describe(
    'vigente, cancelado or desconocido (never checked, the default); a cancelado CFDI counts in no report, total or payment status',
  ),
  fecha_cancelacion: z
    .string()
    .optional()
    .describe('When it was cancelled (Mexico local time), as its source says; present when known'),
  estatus_fuente: EstatusFuente.optional().describe(
    "Who said the status: SAT's metadata file, SAT's status service (consulta), the user's own mark, or a substitute CFDI (TipoRelacion 04, a presumption); absent while desconocido",
  ),
  fecha_estatus: Timestamp.optional().describe('When that source said it'),
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
    ...satStatusFields,
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
      estatus_sat: 'vigente',
      estatus_fuente: 'metadata',
      fecha_estatus: '2025-03-06T10:15:00.000Z',
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
