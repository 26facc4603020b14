import { z } from 'zod';
import { PROFILE_ALIAS, withAliases } from '../schemas/aliases';
import { IsoDate } from '../schemas/dates';
import { Invoice } from '../schemas/invoice';
import { listQuery, Pagination } from '../schemas/pagination';
import { SatStatusMarkFields } from '../schemas/sat-metadata';
import { CfdiSatCheck } from '../schemas/sat-sync';
import { checkSatStatus } from '../services/cfdi/check-sat-status';
import { setActo5c } from '../services/cfdi/iva-tags';
import { addManualPayment } from '../services/cfdi/manual-payment';
import { markSatStatus } from '../services/cfdi/mark-status';
import { getInvoice, listInvoices } from '../services/cfdi/read-invoices';
import { authedProcedure, documentedOutput, router } from '../trpc';

const InvoiceId = z.object({ id: z.string().min(1).max(100) });
export const invoicesRouter = router({
  list: authedProcedure
    .input(withAliases(z.object(listQuery(50)), PROFILE_ALIAS))
    .output(documentedOutput(z.object({ data: z.array(Invoice), pagination: Pagination })))
    .query(({ ctx, input }) => listInvoices(ctx, ctx.user.id, input)),

  get: authedProcedure
    .input(InvoiceId)
    .output(Invoice)
    .query(({ ctx, input }) => getInvoice(ctx, ctx.user.id, input.id)),

  addPayment: authedProcedure
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
  checkSatStatus: authedProcedure
    .input(InvoiceId)
    .output(z.object({ data: CfdiSatCheck }))
    .mutation(async ({ ctx, input }) => ({
      data: await checkSatStatus(ctx, ctx.user.id, input.id, 'income'),
    })),
  setActo5c: authedProcedure
    .input(InvoiceId.extend({ acto_5c: z.boolean() }).meta({ example: { acto_5c: true } }))
    .output(z.object({ message: z.string(), data: z.object({ id: z.string(), acto_5c: z.boolean() }) }))
    .mutation(async ({ ctx, input }) => ({
      message: 'Invoice tagged',
      data: await setActo5c(ctx, ctx.user.id, input.id, input.acto_5c),
    })),
});
