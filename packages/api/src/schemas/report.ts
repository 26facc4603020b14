import { z } from 'zod';
import { REPORT_FORMATS } from '../services/reports/rules';
import { PROFILE_ALIAS, profileRefFields, withAliases } from './aliases';
import { Año, Mes } from './pagination';
import { IvaAcreditable, Nomina, PorTasa, ResicoAnual } from './report-iva-isr';

// The tax reports of plan-features §3. Amounts are MXN with 2 decimals; rates are percentages.

const Money = z.number();
// tax-rules §4, §5 (totals by rate, creditable IVA, RESICO annual, nómina): report-iva-isr.ts.

const Accrual = z
  .object({
    documentos: z.number().int(),
    subtotal: Money,
    descuento: Money,
    iva_trasladado: Money,
    retencion_iva: Money,
    retencion_isr: Money,
    total: Money,
    notas_credito: Money.describe('Total of the month’s credit notes (E), already subtracted'),
  })
  .meta({ id: 'ReportAccrual' });

const Cash = z
  .object({
    base: Money,
    iva_trasladado: Money,
    retencion_iva: Money,
    retencion_isr: Money,
    total: Money,
    por_tasa: PorTasa,
  })
  .meta({ id: 'ReportCash' });

const Iva = z
  .object({
    trasladado_cobrado: Money,
    retenido_por_clientes: Money,
    acreditable_pagado: Money,
    retenido_a_proveedores: Money,
    saldo: Money,
    a_cargo: Money,
    a_favor: Money,
    ...IvaAcreditable,
  })
  .meta({ id: 'ReportIva' });

const Isr = z
  .object({ retenido_por_clientes: Money, retenido_a_proveedores: Money })
  .meta({ id: 'ReportIsr' });

const partyRow = (moved: 'cobrado' | 'pagado') =>
  z.object({
    rfc: z.string(),
    nombre: z.string(),
    documentos: z.number().int(),
    total: Money,
    [moved]: Money,
    saldo_pendiente: Money,
  });

const PendingSum = z.object({ documentos: z.number().int(), saldo: Money });

const Resico = z
  .object({
    ingresos_cobrados: Money,
    tasa: z.number().describe('LISR art. 113-E monthly rate, a percentage (1.5 means 1.5 %)'),
    isr_causado: Money,
    isr_retenido: Money,
    isr_a_pagar: Money,
  })
  .meta({ id: 'ReportResico' });

const ReportProfile = z.object({ id: z.string(), rfc: z.string(), nombre: z.string() });
const Nivel = z.enum(['basic', 'complete', 'advanced']).describe('The level served (the caller’s plan)');

export const MonthlyReport = z
  .object({
    profile: ReportProfile,
    periodo: z.object({ año: z.number().int(), mes: z.number().int() }),
    nivel: Nivel,
    ingresos: Accrual,
    egresos: Accrual,
    flujo: z.object({ cobrado: Cash, pagado: Cash }).optional().describe('complete and advanced'),
    iva: Iva.optional().describe('complete and advanced'),
    isr: Isr.optional().describe('complete and advanced'),
    por_cliente: z.array(partyRow('cobrado')).optional().describe('complete and advanced'),
    por_proveedor: z.array(partyRow('pagado')).optional().describe('complete and advanced'),
    pendientes: z
      .object({ por_cobrar: PendingSum, por_pagar: PendingSum })
      .optional()
      .describe('complete and advanced'),
    nomina: Nomina.optional().describe(
      'complete and advanced: the Nómina 1.2 receipts the profile issued as employer, by FechaPago',
    ),
    nomina_recibida: Nomina.optional().describe(
      'complete and advanced: the Nómina 1.2 receipts the profile received (its salary and the ISR withheld), by FechaPago',
    ),
    resico: Resico.optional().describe(
      'advanced, persona física in régimen 626 only, not after the month its year-to-date income passed 3,500,000.00',
    ),
    advertencias: z.array(z.string()),
  })
  .meta({ id: 'MonthlyReport' });

export const AnnualReport = z
  .object({
    profile: ReportProfile,
    año: z.number().int(),
    nivel: Nivel,
    meses: z.array(MonthlyReport),
    totales: z.object({
      ingresos: Accrual,
      egresos: Accrual,
      flujo: z.object({ cobrado: Cash, pagado: Cash }).optional(),
      iva: Iva.optional(),
      isr: Isr.optional(),
      resico: Resico.omit({ tasa: true }).optional(),
    }),
    resico_anual: ResicoAnual.optional().describe(
      'advanced, RESICO persona física only, not for a year in which it left RESICO (LISR 113-F)',
    ),
  })
  .meta({ id: 'AnnualReport' });

export const DiotReport = z
  .object({
    profile: ReportProfile,
    periodo: z.object({ año: z.number().int(), mes: z.number().int() }),
    proveedores: z.array(
      z.object({
        rfc: z.string(),
        nombre: z.string(),
        tipo_tercero: z.enum(['04', '05', '15']),
        base_16: Money,
        iva_16: Money,
        base_8: Money,
        iva_8: Money,
        base_0: Money,
        base_exenta: Money,
        iva_retenido: Money,
        documentos: z.number().int(),
      }),
    ),
    advertencias: z.array(z.string()),
  })
  .meta({ id: 'DiotReport' });

const format = z
  .enum(REPORT_FORMATS)
  .default('json')
  .describe(
    'json (default); xlsx: the report as a workbook, one sheet per section (needs exportExcel: BASIC or PRO); pdf: the sections as tables, the annual report with a chart of the twelve months (needs exportPDF: BASIC or PRO)',
  );

/** The report routes' query fields (the file route reads the same); MonthQuery/YearQuery validate them. */
export const MonthFields = z.object({ ...profileRefFields, año: Año, mes: Mes, format });
export const YearFields = z.object({ ...profileRefFields, año: Año, format });
export const MonthQuery = withAliases(MonthFields, PROFILE_ALIAS, ['profileId']);
export const YearQuery = withAliases(YearFields, PROFILE_ALIAS, ['profileId']);
