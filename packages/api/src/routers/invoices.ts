import { z } from 'zod';
import { PROFILE_ALIAS, withAliases } from '../schemas/aliases';
import { IsoDate } from '../schemas/dates';
import { Invoice } from '../schemas/invoice';
import { listQuery, Pagination } from '../schemas/pagination';
import { SatStatusMarkFields } from '../schemas/sat-metadata';
import { setActo5c } from '../services/cfdi/iva-tags';
import { addManualPayment } from '../services/cfdi/manual-payment';
import { markSatStatus } from '../services/cfdi/mark-status';
import { getInvoice, listInvoices } from '../services/cfdi/read-invoices';
import { authedProcedure, documentedOutput, router } from '../trpc';

const tags = ['invoices'];
const InvoiceId = z.object({ id: z.string().min(1).max(100) });
export const invoicesRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/invoices',
        tags,
        summary: 'Income CFDI of your profiles, newest first',
        description:
          "Income CFDI of the caller's profiles with their validation results and payment status, newest first, in pages. Filter by profile, month and year, the issuer's fiscal regime and a text search.",
        errorResponses: [400, 401, 403, 404, 500],
      },
    })
    .input(withAliases(z.object(listQuery(50)), PROFILE_ALIAS))
    .output(documentedOutput(z.object({ data: z.array(Invoice), pagination: Pagination })))
    .query(({ ctx, input }) => listInvoices(ctx, ctx.user.id, input)),

  get: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/invoices/{id}',
        tags,
        summary: 'One invoice',
        description: 'One income CFDI with its validation results, payments and payment status.',
        errorResponses: [401, 403, 404, 500],
      },
    })
    .input(InvoiceId)
    .output(Invoice)
    .query(({ ctx, input }) => getInvoice(ctx, ctx.user.id, input.id)),

  addPayment: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/invoices/{id}/payments',
        tags,
        summary: 'Record a manual payment and recompute the payment status',
        description:
          "Records a payment made outside a payment complement (REP) and recomputes the invoice's paid amount and status; the invoice is marked `tienePagosManuales`.",
        errorResponses: [400, 401, 403, 404, 500],
      },
      rest: { successStatus: 201 },
    })
    .input(
      InvoiceId.extend({
        fechaPago: IsoDate,
        formaPago: z.string().regex(/^\d{2}$/, 'formaPago is a 2-digit c_FormaPago code'),
        monedaPago: z.string().regex(/^[A-Z]{3}$/, 'monedaPago is a 3-letter currency code'),
        monto: z.number().positive().max(1e12),
        numOperacion: z.string().trim().min(1).max(100).optional(),
      }).meta({
        example: {
          fechaPago: '2025-03-20',
          formaPago: '03',
          monedaPago: 'MXN',
          monto: 5000,
          numOperacion: 'SPEI-0042',
        },
      }),
    )
    .output(z.object({ message: z.string(), data: Invoice }))
    .mutation(async ({ ctx, input: { id, ...payment } }) => ({
      message: 'Payment recorded',
      data: await addManualPayment(ctx, ctx.user.id, id, payment),
    })),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/invoices/{id}',
        tags,
        summary:
          "Mark an income CFDI cancelado (on a date) or vigente: the user's own word on its SAT status",
        description:
          "Sets `estatus_sat` with `estatus_fuente: \"usuario\"` (docs/sat-status.md). A cancelado CFDI leaves every report, total and payment status. The mark outranks a substitution's presumption and gives way to SAT's word: a later metadata file replaces it, and a CFDI SAT reported cancelado answers 409 (a cancellation SAT reported is final). `fecha_cancelacion` is required with cancelado and refused with vigente. Someone else's CFDI answers as GET /invoices/{id} does (403).",
        errorResponses: [400, 401, 403, 404, 409, 500],
      },
    })
    .input(
      InvoiceId.extend(SatStatusMarkFields).meta({
        example: { estatus_sat: 'cancelado', fecha_cancelacion: '2025-04-02' },
      }),
    )
    .output(z.object({ message: z.string(), data: Invoice }))
    .mutation(async ({ ctx, input: { id, ...mark } }) => {
      const { message, data } = await markSatStatus(ctx, ctx.user.id, id, 'income', mark);
      return { message, data: data as Invoice };
    }),
  setActo5c: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/invoices/{id}/acto-5c',
        tags,
        summary: 'Tag an income CFDI as an act of LIVA 5-C (left out of the IVA proportion)',
        description:
          'With `acto_5c: true` the CFDI is left out of both sides of the monthly IVA proportion (LIVA 5-C: interest, shares, currency, fixed assets…); Folio already recognises interest by ClaveProdServ or description. docs/iva-isr.md. A frozen profile answers 403.',
        errorResponses: [400, 401, 403, 404, 500],
      },
    })
    .input(InvoiceId.extend({ acto_5c: z.boolean() }).meta({ example: { acto_5c: true } }))
    .output(z.object({ message: z.string(), data: z.object({ id: z.string(), acto_5c: z.boolean() }) }))
    .mutation(async ({ ctx, input }) => ({
      message: 'Invoice tagged',
      data: await setActo5c(ctx, ctx.user.id, input.id, input.acto_5c),
    })),
});
