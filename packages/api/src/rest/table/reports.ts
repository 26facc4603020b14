import { CONTENT_TYPES } from '../../services/exports/rules';
import type { FileHandlerName, ProcedureEntry, RouteEntry } from './entry';

const tags = ['reports'];
// 503 (Retry-After): every PDF worker busy (format=pdf), or every report worker (PostgreSQL:
// report_busy, report_timeout); 422 report_too_large: a report over a worker's memory.
const errors = [400, 401, 403, 404, 422, 500, 503];
/** format=xlsx|pdf answers the report as a workbook or a PDF (apps/api's report file handlers). */
const formats = {
  xlsx: {
    type: CONTENT_TYPES.xlsx,
    description: 'format=xlsx: one sheet per section (needs exportExcel), as an attachment',
  },
  pdf: {
    type: 'application/pdf',
    description:
      'format=pdf: the sections as tables, the annual report with a chart of the twelve months (needs exportPDF), as an attachment',
  },
};
// The handler writes the JSON answer too: made in the report's worker thread (report-body.ts).
const files = (handler: FileHandlerName, more = {}): ProcedureEntry['files'] => ({
  handler,
  formats: { ...formats, ...more },
  json: true,
});

/** The REST routes of tax reports, each also a file by `format`. */
export const reportsRoutes: RouteEntry[] = [
  {
    method: 'GET',
    path: '/reports/monthly',
    procedure: 'reports.monthly',
    docs: {
      tags,
      summary: 'What the taxpayer owes for a month: income, expenses, cash flow, IVA, ISR',
      description:
        'Computed from the stored CFDI, payments and manual expenses on request. Every plan gets `ingresos`, ' +
        '`egresos` (accrual basis) and `advertencias`; `complete` (BASIC) adds `flujo` (cash basis), `iva`, ' +
        '`isr`, `por_cliente`, `por_proveedor` and `pendientes`; `advanced` (PRO) adds `resico` for a ' +
        'persona física in régimen 626. `nivel` says which level was served. Amounts in MXN, 2 decimals.',
    },
    errors,
    files: files('monthlyReportFile'),
  },
  {
    method: 'GET',
    path: '/reports/annual',
    procedure: 'reports.annual',
    docs: {
      tags,
      summary: 'The twelve monthly reports of a year and their totals (BASIC or PRO)',
      description:
        'The monthly report of each month of `año` at the plan’s level, and the year’s totals (IVA a ' +
        'cargo and a favor add each month’s result). FREE → 403.',
    },
    errors,
    files: files('annualReportFile'),
  },
  {
    method: 'GET',
    path: '/reports/diot',
    procedure: 'reports.diot',
    docs: {
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
    },
    errors,
    files: files('diotReportFile', {
      txt: {
        type: 'text/plain',
        description: 'format=txt: SAT’s DIOT batch file (54 fields per line), as an attachment',
      },
    }),
  },
];
