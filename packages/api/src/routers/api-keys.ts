import { z } from 'zod';
import { ApiKey, CreateApiKeyInput, NewApiKey } from '../schemas/api-key';
import { Message } from '../schemas/user';
import { createApiKey, listApiKeys, revokeOwnApiKey } from '../services/api-keys/manage-keys';
import { authedProcedure, router } from '../trpc';

export const apiKeysRouter = router({
  create: authedProcedure
    .meta({ sessionOnly: true })
    .input(CreateApiKeyInput)
    .output(z.object({ message: z.string(), data: NewApiKey }))
    .mutation(async ({ ctx, input }) => ({
      message: 'API key created; store it now, it is not shown again',
      data: await createApiKey(ctx, ctx.user, input),
    })),

  list: authedProcedure
    .meta({ sessionOnly: true })
    .input(z.object({}).optional())
    .output(z.object({ data: z.array(ApiKey) }))
    .query(async ({ ctx }) => ({ data: await listApiKeys(ctx, ctx.user.id) })),

  revoke: authedProcedure
    .meta({ sessionOnly: true })
    .input(z.object({ id: z.string().min(1).max(100) }))
    .output(Message)
    .mutation(async ({ ctx, input }) => {
      await revokeOwnApiKey(ctx, ctx.user.id, input.id);
      return { message: 'API key revoked' };
    }),
});
