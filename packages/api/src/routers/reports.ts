import { z } from 'zod';
import { AnnualReport, DiotQuery, DiotReport, MonthlyReport, MonthQuery, YearQuery } from '../schemas/report';
import { CONTENT_TYPES } from '../services/exports/rules';
import { getAnnualReport, getDiotReport, getMonthlyReport } from '../services/reports/build-reports';
import { authedProcedure, router } from '../trpc';

const tags = ['reports'];
// 503: format=pdf while every PDF worker is busy (Retry-After).
const errorResponses = [400, 401, 403, 404, 500, 503];
/** format=xlsx|pdf answers the report as a workbook or a PDF (apps/api's report file route). */
const rest = {
  files: {
    [CONTENT_TYPES.xlsx]: 'format=xlsx: one sheet per section (needs exportExcel), as an attachment',
    'application/pdf':
      'format=pdf: the sections as tables, the annual report with a chart of the twelve months (needs exportPDF), as an attachment',
  },
};

export const reportsRouter = router({
  monthly: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/reports/monthly',
        tags,
        summary: 'What the taxpayer owes for a month: income, expenses, cash flow, IVA, ISR',
        description:
          'Computed from the stored CFDI, payments and manual expenses on request. Every plan gets `ingresos`, ' +
          '`egresos` (accrual basis) and `advertencias`; `complete` (BASIC) adds `flujo` (cash basis), `iva`, ' +
          '`isr`, `por_cliente`, `por_proveedor` and `pendientes`; `advanced` (PRO) adds `resico` for a ' +
          'persona física in régimen 626. `nivel` says which level was served. Amounts in MXN, 2 decimals.',
        errorResponses,
      },
      rest,
    })
    .input(MonthQuery)
    .output(z.object({ data: MonthlyReport }))
    .query(async ({ ctx, input }) => ({ data: await getMonthlyReport(ctx, ctx.user.id, input) })),

  annual: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/reports/annual',
        tags,
        summary: 'The twelve monthly reports of a year and their totals (BASIC or PRO)',
        description:
          'The monthly report of each month of `año` at the plan’s level, and the year’s totals (IVA a ' +
          'cargo and a favor add each month’s result). FREE → 403.',
        errorResponses,
      },
      rest,
    })
    .input(YearQuery)
    .output(z.object({ data: AnnualReport }))
    .query(async ({ ctx, input }) => ({ data: await getAnnualReport(ctx, ctx.user.id, input) })),

  diot: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/reports/diot',
        tags,
        summary: 'DIOT: suppliers paid in the month, per tipo de operación, in SAT’s columns (PRO)',
        description:
          'One row per supplier and tipo de operación with expenses paid in the month (cash basis), in the ' +
          'columns of SAT’s DIOT version 2 kept apart: value of acts by rate and border region with the ' +
          'credit notes received beside them, IVA creditable and not, IVA withheld. `tipo_tercero` 04 ' +
          'national, 05 foreign (a manual expense with its tax id and country, one row each), 15 global ' +
          '(XAXX010101000 and manual expenses without RFC). `tipo_operacion` is derived from the CFDI unless ' +
          'set with PUT /api/profiles/{id}/diot/proveedores/{rfc}; `advertencias` lists the derived ones. ' +
          'format=txt answers SAT’s batch file. Needs `advanced`.',
        errorResponses,
      },
      rest: {
        files: {
          ...rest.files,
          'text/plain': 'format=txt: SAT’s DIOT batch file (54 fields per line), as an attachment',
        },
      },
    })
    .input(DiotQuery)
    .output(z.object({ data: DiotReport }))
    .query(async ({ ctx, input }) => ({ data: await getDiotReport(ctx, ctx.user.id, input) })),
});
