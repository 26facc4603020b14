import type { RouteEntry } from './entry';
import { satStatusCheckEntry } from './sat-sync';

const tags = ['invoices'];

/** The REST routes of income CFDI. */
export const invoicesRoutes: RouteEntry[] = [
  {
    method: 'GET',
    path: '/invoices',
    procedure: 'invoices.list',
    docs: {
      tags,
      summary: 'Income CFDI of your profiles, newest first',
      description:
        "Income CFDI of the caller's profiles with their validation results and payment status, newest first, in pages. Filter by profile, month and year, the issuer's fiscal regime and a text search.",
    },
    errors: [400, 401, 403, 404, 500],
  },
  {
    method: 'GET',
    path: '/invoices/{id}',
    procedure: 'invoices.get',
    docs: {
      tags,
      summary: 'One invoice',
      description: 'One income CFDI with its validation results, payments and payment status.',
    },
    errors: [401, 403, 404, 500],
  },
  {
    method: 'POST',
    path: '/invoices/{id}/payments',
    procedure: 'invoices.addPayment',
    docs: {
      tags,
      summary: 'Record a manual payment and recompute the payment status',
      description:
        "Records a payment made outside a payment complement (REP) and recomputes the invoice's paid amount and status; the invoice is marked `tienePagosManuales`.",
    },
    errors: [400, 401, 403, 404, 500],
    rest: { successStatus: 201 },
  },
  {
    method: 'PATCH',
    path: '/invoices/{id}',
    procedure: 'invoices.update',
    docs: {
      tags,
      summary: "Mark an income CFDI cancelado (on a date) or vigente: the user's own word on its SAT status",
      description:
        "Sets `estatus_sat` with `estatus_fuente: \"usuario\"` (docs/sat-status.md). A cancelado CFDI leaves every report, total and payment status. The mark outranks a substitution's presumption and gives way to SAT's word: a later metadata file replaces it, and a CFDI SAT reported cancelado answers 409 (a cancellation SAT reported is final). `fecha_cancelacion` is required with cancelado and refused with vigente. Someone else's CFDI answers as GET /invoices/{id} does (403).",
    },
    errors: [400, 401, 403, 404, 409, 500],
  },
  satStatusCheckEntry('invoices', tags),
  {
    method: 'PUT',
    path: '/invoices/{id}/acto-5c',
    procedure: 'invoices.setActo5c',
    docs: {
      tags,
      summary: 'Tag an income CFDI as an act of LIVA 5-C (left out of the IVA proportion)',
      description:
        'With `acto_5c: true` the CFDI is left out of both sides of the monthly IVA proportion (LIVA 5-C: interest, shares, currency, fixed assets…); Folio already recognises interest by ClaveProdServ or description. docs/iva-isr.md. A frozen profile answers 403.',
    },
    errors: [400, 401, 403, 404, 500],
  },
];
