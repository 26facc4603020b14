import { z } from 'zod';
import { SupportRequest, SupportRequestCreate, SupportRequestCreated } from '../schemas/support';
import { createSupportRequest } from '../services/support/create-support-request';
import { listSupportRequests } from '../services/support/list-support-requests';
import { authedProcedure, router } from '../trpc';

// Support by plan (integrations.md §3, docs/support.md): FREE is refused naming BASIC.

export const supportRouter = router({
  create: authedProcedure
    .input(SupportRequestCreate)
    .output(z.object({ message: z.string(), data: SupportRequestCreated }))
    .mutation(async ({ ctx, input }) => {
      const data = await createSupportRequest(ctx, ctx.user.id, input);
      return { message: `Support request ${data.folio} received`, data };
    }),

  list: authedProcedure
    .input(z.object({}).optional())
    .output(z.object({ data: z.array(SupportRequest) }))
    .query(async ({ ctx }) => ({ data: await listSupportRequests(ctx, ctx.user.id) })),
});
