import { z } from 'zod';
import { PROFILE_ALIAS, profileRefFields, withAliases } from '../schemas/aliases';
import { Period } from '../schemas/period';
import { openPeriod, periodsOf, setPeriodEstado } from '../services/periods/manage-periods';
import { authedProcedure, router } from '../trpc';

const tags = ['periods'];
const PeriodId = z.object({ id: z.string().min(1).max(100) });
const Data = z.object({ message: z.string(), data: Period });

const transition = (estado: 'ABIERTO' | 'CERRADO', verb: 'close' | 'reopen') =>
  authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: `/periods/{id}/${verb}`,
        tags,
        summary:
          verb === 'close' ? 'Close a period: no more manual expenses in it' : 'Reopen a closed period',
        description:
          verb === 'close'
            ? 'Marks the period CERRADO: manual expenses can no longer be recorded in it until it is reopened.'
            : 'Marks a closed period ABIERTO again, so manual expenses can be recorded in it.',
        errorResponses: [401, 403, 404, 500],
      },
    })
    .input(PeriodId)
    .output(Data)
    .mutation(async ({ ctx, input }) => ({
      message: verb === 'close' ? 'Period closed' : 'Period reopened',
      data: await setPeriodEstado(ctx, ctx.user.id, input.id, estado),
    }));

export const periodsRouter = router({
  list: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/periods',
        tags,
        summary: "A profile's accounting periods",
        description:
          'The accounting periods of one profile (id or RFC), each a month that is ABIERTO or CERRADO.',
        errorResponses: [400, 401, 403, 404, 500],
      },
    })
    .input(withAliases(z.object(profileRefFields), PROFILE_ALIAS, ['profileId']))
    .output(z.object({ data: z.array(Period) }))
    .query(async ({ ctx, input }) => ({ data: await periodsOf(ctx, ctx.user.id, input.profileId) })),

  open: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/periods',
        tags,
        summary: 'Open the period of a month (201), or get the existing one (200)',
        description:
          'Opens the accounting period of a month for a profile. Calling it again for the same month answers the existing period (200), so it is safe to retry.',
        errorResponses: [400, 401, 403, 404, 500],
      },
      rest: { successStatus: 201, alsoOk: 'The period of that month already existed' },
    })
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
