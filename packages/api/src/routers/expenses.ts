import { z } from 'zod';
import { PROFILE_ALIAS, profileRefFields, withAliases } from '../schemas/aliases';
import { IsoDate } from '../schemas/dates';
import { Expense } from '../schemas/expense';
import { expenseFilters, listQuery, Pagination } from '../schemas/pagination';
import { SatStatusMarkFields } from '../schemas/sat-metadata';
import { CfdiSatCheck } from '../schemas/sat-sync';
import { checkSatStatus } from '../services/cfdi/check-sat-status';
import { setUsoIva } from '../services/cfdi/iva-tags';
import { markSatStatus } from '../services/cfdi/mark-status';
import { createManualExpense } from '../services/expenses/create-manual-expense';
import { listExpenses } from '../services/expenses/list-expenses';
import { updateManualExpense } from '../services/expenses/manual-expense-payment';
import { authedProcedure, documentedOutput, router } from '../trpc';

const Concepto = z.string().trim().min(1).max(500);
/** The DIOT's foreign supplier (tipo de tercero 05): its tax id and country, one DIOT row each. */
const DiotSupplierFields = {
  tipo_tercero: z.enum(['04', '05']).optional().meta({
    description: 'DIOT: 05 for a foreign supplier (then id_fiscal and pais are required); 04 national',
  }),
  id_fiscal: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .optional()
    .meta({ description: 'The foreign supplier’s tax id' }),
  pais: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 3166 alpha-3 code (e.g. USA)')
    .optional()
    .meta({ description: 'The foreign supplier’s country, ISO 3166 alpha-3 (ZZZ: another)' }),
};

/** What a manual expense says about its IVA (docs/iva-isr.md#creditable-iva); null clears a field on PATCH. */
const ivaSupportFields = {
  uuid_cfdi: z.string().trim().max(36).nullable().optional().meta({
    description:
      "The UUID of the expense's CFDI: without it (or a pedimento, or 18-D) its IVA is not creditable (LIVA 5-II)",
  }),
  pedimento: z
    .string()
    .trim()
    .max(30)
    .nullable()
    .optional()
    .meta({ description: "An import's pedimento (15 digits): its IVA is creditable" }),
  proveedor_extranjero_digital: z
    .boolean()
    .optional()
    .meta({ description: 'A foreign digital service registered under LIVA 18-D: its IVA is creditable' }),
  forma_pago: z.string().trim().max(2).nullable().optional().meta({
    description:
      'c_FormaPago of its payment; 01 (cash) over 2,000.00 is not creditable (LIVA 5-I, LISR 27-III)',
  }),
  uso_iva: z.enum(['gravado', 'exento']).nullable().optional().meta({
    description:
      'Used only for taxed acts (100 % creditable) or only for exempt ones (0 %); absent: both, in proportion (LIVA 5-V)',
  }),
};

export const expensesRouter = router({
  list: authedProcedure
    .input(
      withAliases(
        z.object({
          ...listQuery(20),
          ...expenseFilters,
        }),
        PROFILE_ALIAS,
      ),
    )
    .output(documentedOutput(z.object({ data: z.array(Expense), pagination: Pagination })))
    .query(({ ctx, input }) => listExpenses(ctx, ctx.user.id, input)),

  createManual: authedProcedure
    .meta({ quota: true })
    .input(
      withAliases(
        z.object({
          ...profileRefFields,
          period_id: z.string().trim().min(1).max(100),
          concepto: Concepto.optional(),
          concept: Concepto.optional().meta({ description: 'Same as concepto (the older name)' }),
          subtotal: z.number().min(0).max(1e12),
          iva_amount: z.number().min(0).max(1e12).optional(),
          fecha: IsoDate,
          type: z.literal('manual', 'must be "manual"'),
          categoria: z.string().trim().min(1).max(100).optional(),
          is_paid: z.boolean().optional().meta({ description: 'Paid already (default false)' }),
          payment_date: IsoDate.optional().meta({ description: 'When it was paid; required when is_paid' }),
          rfc_emisor: z.string().trim().min(1).max(20).optional().meta({ description: "The supplier's RFC" }),
          nombre_emisor: z
            .string()
            .trim()
            .min(1)
            .max(254)
            .optional()
            .meta({ description: "The supplier's name" }),
          ...DiotSupplierFields,
          ...ivaSupportFields,
        }),
        { ...PROFILE_ALIAS, concept: 'concepto' },
        ['profileId', 'concepto'],
      ).meta({
        example: {
          profile_id: 'H&E951128469',
          period_id: '9d3f2b1a-6c5e-4f7a-8b9c-0d1e2f3a4b5c',
          concepto: 'Papelería',
          subtotal: 1000,
          iva_amount: 160,
          fecha: '2025-03-14',
          type: 'manual',
          categoria: 'oficina',
          is_paid: true,
          payment_date: '2025-03-15',
          rfc_emisor: 'EKU9003173C9',
          nombre_emisor: 'Papelería del Centro',
          uuid_cfdi: '6F3A2C1B-9D8E-4F7A-B6C5-D4E3F2A1B0C9',
          forma_pago: '03',
        },
      }),
    )
    .output(z.object({ message: z.string(), data: Expense }))
    .mutation(({ ctx, input }) => createManualExpense(ctx, ctx.user.id, input)),

  updatePayment: authedProcedure
    .input(
      z
        .object({
          id: z.string().min(1).max(100),
          is_paid: z.boolean().optional(),
          payment_date: IsoDate.optional(),
          ...DiotSupplierFields,
          ...ivaSupportFields,
        })
        .meta({ example: { is_paid: true, payment_date: '2025-03-20' } }),
    )
    .output(z.object({ message: z.string(), data: Expense }))
    .mutation(async ({ ctx, input: { id, ...fields } }) => ({
      message: 'Expense updated',
      data: await updateManualExpense(ctx, ctx.user.id, id, fields),
    })),

  setUsoIva: authedProcedure
    .input(
      z
        .object({ id: z.string().min(1).max(100), uso_iva: z.enum(['gravado', 'exento']).nullable() })
        .meta({ example: { uso_iva: 'gravado' } }),
    )
    .output(
      z.object({
        message: z.string(),
        data: z.object({ id: z.string(), uso_iva: z.enum(['gravado', 'exento']).nullable() }),
      }),
    )
    .mutation(async ({ ctx, input }) => ({
      message: 'Expense tagged',
      data: await setUsoIva(ctx, ctx.user.id, input.id, input.uso_iva),
    })),

  update: authedProcedure
    .input(
      z
        .object({ id: z.string().min(1).max(100), ...SatStatusMarkFields })
        .meta({ example: { estatus_sat: 'cancelado', fecha_cancelacion: '2025-04-02' } }),
    )
    .output(z.object({ message: z.string(), data: Expense }))
    .mutation(async ({ ctx, input: { id, ...mark } }) => {
      const { message, data } = await markSatStatus(ctx, ctx.user.id, id, 'expense', mark);
      return { message, data: data as Expense };
    }),
  checkSatStatus: authedProcedure
    .input(z.object({ id: z.string().min(1).max(100) }))
    .output(z.object({ data: CfdiSatCheck }))
    .mutation(async ({ ctx, input }) => ({
      data: await checkSatStatus(ctx, ctx.user.id, input.id, 'expense'),
    })),
});
