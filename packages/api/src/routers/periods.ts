import { z } from 'zod';
import { PROFILE_ALIAS, profileRefFields, withAliases } from '../schemas/aliases';
import { Period } from '../schemas/period';
import { openPeriod, periodsOf, setPeriodEstado } from '../services/periods/manage-periods';
import { authedProcedure, router } from '../trpc';

const PeriodId = z.object({ id: z.string().min(1).max(100) });
const Data = z.object({ message: z.string(), data: Period });

const transition = (estado: 'ABIERTO' | 'CERRADO', verb: 'close' | 'reopen') =>
  authedProcedure
    .input(PeriodId)
    .output(Data)
    .mutation(async ({ ctx, input }) => ({
      message: verb === 'close' ? 'Period closed' : 'Period reopened',
      data: await setPeriodEstado(ctx, ctx.user.id, input.id, estado),
    }));

export const periodsRouter = router({
  list: authedProcedure
    .input(withAliases(z.object(profileRefFields), PROFILE_ALIAS, ['profileId']))
    .output(z.object({ data: z.array(Period) }))
    .query(async ({ ctx, input }) => ({ data: await periodsOf(ctx, ctx.user.id, input.profileId) })),

  open: authedProcedure
    .input(
      withAliases(
        z.object({
          ...profileRefFields,
          año: z.number().int().min(1990).max(2100),
          mes: z.number().int().min(1).max(12),
        }),
        PROFILE_ALIAS,
        ['profileId'],
      ).meta({ example: { profile_id: 'H&E951128469', año: 2025, mes: 3 } }),
    )
    .output(Data)
    .mutation(async ({ ctx, input }) => ({
      message: 'Period ready',
      data: await openPeriod(ctx, ctx.user.id, input),
    })),

  close: transition('CERRADO', 'close'),
  reopen: transition('ABIERTO', 'reopen'),
});
