import type { RouteEntry } from './entry';
import { satStatusCheckEntry } from './sat-sync';

const tags = ['expenses'];

/** The REST routes of expenses. */
export const expensesRoutes: RouteEntry[] = [
  {
    method: 'GET',
    path: '/expenses',
    procedure: 'expenses.list',
    docs: {
      tags,
      summary: 'Expenses from received CFDI and manual entry, newest first',
      description:
        "Expenses of the caller's profiles: received CFDI and manual entries together, newest first, in pages. Filter by profile (id or RFC), month and year, regime, text, `tipo` and `categoria`.",
    },
    errors: [400, 401, 403, 404, 500],
  },
  {
    method: 'POST',
    path: '/accrued-expenses',
    procedure: 'expenses.createManual',
    docs: {
      tags,
      summary: 'Record a manual expense in an open accounting period (Idempotency-Key supported)',
      description:
        "Records an expense without a CFDI into an open accounting period of the profile; IVA and total are computed. Counts against the plan's monthly quota of manual expenses (429 past it).",
    },
    errors: [400, 401, 403, 409, 429, 500],
    rest: {
      successStatus: 201,
      idempotencyKey: true,
    },
  },
  {
    method: 'PATCH',
    path: '/accrued-expenses/{id}',
    procedure: 'expenses.updatePayment',
    docs: {
      tags,
      summary: 'Mark a manual expense paid (on a date) or unpaid, or change what it says about its IVA',
      description:
        'Changes the fields sent. `is_paid` sets whether a manual expense is paid and when; `payment_date` is required with `is_paid: true` and refused with `false`. The cash-basis reports count a paid manual expense on its payment date. `uuid_cfdi`, `pedimento`, `proveedor_extranjero_digital`, `forma_pago` and `uso_iva` decide whether and how its IVA is credited (null clears one). `tipo_tercero`, `id_fiscal` and `pais`, when sent, replace its DIOT supplier fields (05 needs both others). An expense that is not yours answers 404.',
    },
    errors: [400, 401, 403, 404, 500],
  },
  {
    method: 'PUT',
    path: '/expenses/{id}/uso-iva',
    procedure: 'expenses.setUsoIva',
    docs: {
      tags,
      summary: 'Tag a received CFDI as used only for taxed or only for exempt acts (LIVA 5-V)',
      description:
        "`gravado`: its IVA is credited in full; `exento`: never; null: used for both, credited at the month's proportion (the default). A manual expense takes `uso_iva` on PATCH /accrued-expenses/{id}. docs/iva-isr.md. A frozen profile answers 403.",
    },
    errors: [400, 401, 403, 404, 500],
  },
  {
    method: 'PATCH',
    path: '/expenses/{id}',
    procedure: 'expenses.update',
    docs: {
      tags,
      summary: "Mark a received CFDI cancelado (on a date) or vigente: the user's own word on its SAT status",
      description:
        "Sets `estatus_sat` of an expense from a received CFDI with `estatus_fuente: \"usuario\"` (docs/sat-status.md); a manual expense has no SAT status (404). A cancelado CFDI leaves every report, total and payment status. The mark outranks a substitution's presumption and gives way to SAT's word: a CFDI SAT reported cancelado answers 409. `fecha_cancelacion` is required with cancelado and refused with vigente. Someone else's CFDI answers as GET /invoices/{id} does (403).",
    },
    errors: [400, 401, 403, 404, 409, 500],
  },
  satStatusCheckEntry('expenses', tags),
];
