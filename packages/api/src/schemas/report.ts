import { z } from 'zod';
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

const Actos = z
  .object({
    pagado: Money.describe('Value of acts paid in the month'),
    devoluciones: Money.describe('Returns, discounts and bonuses received (credit notes), kept apart'),
  })
  .meta({ id: 'DiotActos' });
const DiotIvaAcreditable = z
  .object({ exclusivamente_gravadas: Money, con_proporcion: Money })
  .meta({ id: 'DiotIvaAcreditable' });
const DiotIvaNoAcreditable = z
  .object({ por_proporcion: Money, no_cumple_requisitos: Money, exentas: Money, no_objeto: Money })
  .meta({ id: 'DiotIvaNoAcreditable' });
const porZona = <T extends z.ZodType>(t: T) =>
  z.object({
    norte: t.describe('8 %, región fronteriza norte'),
    sur: t.describe('8 %, región fronteriza sur'),
    tasa16: t.describe('16 %'),
    importacion_tangibles: t.describe('16 %, import of tangible goods'),
    importacion_intangibles: t.describe('16 %, import of intangible goods and services'),
  });

export const TipoOperacion = z.enum(['02', '03', '06', '07', '08', '85', '87']);

export const DiotReport = z
  .object({
    profile: ReportProfile,
    periodo: z.object({ año: z.number().int(), mes: z.number().int() }),
    proveedores: z.array(
      z
        .object({
          rfc: z.string(),
          nombre: z.string(),
          tipo_tercero: z.enum(['04', '05', '15']),
          tipo_operacion: TipoOperacion,
          tipo_operacion_derivado: z
            .boolean()
            .describe('Derived from the CFDI (true) or set by the user for the supplier (false)'),
          id_fiscal: z.string().nullable().describe('Foreign supplier (05): its tax id'),
          pais: z.string().nullable().describe('Foreign supplier (05): its country, ISO 3166 alpha-3'),
          base_16: Money,
          iva_16: Money,
          base_8: Money,
          iva_8: Money,
          base_0: Money,
          base_exenta: Money,
          iva_retenido: Money,
          documentos: z.number().int(),
          actos: porZona(Actos).extend({
            tasa_0: Actos,
            exento: Actos,
            importacion_exenta: Actos.describe('Imports exempt from IVA (foreign suppliers)'),
            no_objeto: Actos.describe('Acts not subject to IVA (ObjetoImp 01) paid in Mexico'),
          }),
          iva_acreditable: porZona(DiotIvaAcreditable),
          iva_no_acreditable: porZona(DiotIvaNoAcreditable),
          efectos_fiscales: z
            .boolean()
            .describe(
              'Some operation is backed by a CFDI the taxpayer gave tax effects to (TXT field 54: 01)',
            ),
        })
        .meta({ id: 'DiotProveedor' }),
    ),
    advertencias: z.array(z.string()),
  })
  .meta({ id: 'DiotReport' });

export const REPORT_FORMATS = ['json', 'xlsx', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
/** The DIOT also comes as SAT's batch file (`txt`). */
export const DIOT_FORMATS = [...REPORT_FORMATS, 'txt'] as const;
export type DiotFormat = (typeof DIOT_FORMATS)[number];

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

/** The DIOT's query: the month's, with format=txt (SAT's batch file) besides. */
export const DiotFields = MonthFields.extend({
  format: z
    .enum(DIOT_FORMATS)
    .default('json')
    .describe(
      "json (default), xlsx, pdf as the other reports; txt: the batch file SAT's DIOT platform loads (54 fields, `|`-separated, UTF-8, whole pesos)",
    ),
});
export const DiotQuery = withAliases(DiotFields, PROFILE_ALIAS, ['profileId']);
