import { z } from 'zod';
import { ApiKey, CreateApiKeyInput, NewApiKey } from '../schemas/api-key';
import { Message } from '../schemas/user';
import { createApiKey, listApiKeys, revokeOwnApiKey } from '../services/api-keys/manage-keys';
import { authedProcedure, router } from '../trpc';

const tags = ['api-keys'];

export const apiKeysRouter = router({
  create: authedProcedure
    .meta({
      sessionOnly: true,
      openapi: {
        method: 'POST',
        path: '/api-keys',
        tags,
        summary: 'Create an API key (BASIC or PRO, verified email); the key is shown only in this answer',
        description:
          "Creates a key for scripts and servers, sent as `Authorization: Bearer folio_…`. Only the hash is stored, so the key appears in this answer and never again. A `read` key may call GET routes only. Needs BASIC or PRO and a verified email (403); only the user's own session may create keys.",
        errorResponses: [400, 401, 403, 500],
      },
      rest: { successStatus: 201 },
    })
    .input(CreateApiKeyInput)
    .output(z.object({ message: z.string(), data: NewApiKey }))
    .mutation(async ({ ctx, input }) => ({
      message: 'API key created; store it now, it is not shown again',
      data: await createApiKey(ctx, ctx.user, input),
    })),

  list: authedProcedure
    .meta({
      sessionOnly: true,
      openapi: {
        method: 'GET',
        path: '/api-keys',
        tags,
        summary: 'Your active API keys, newest first (never the key itself)',
        description:
          "The caller's keys that are not revoked: name, scope, prefix and when each was last used. The key itself cannot be read back.",
        errorResponses: [401, 403, 500],
      },
    })
    .input(z.object({}).optional())
    .output(z.object({ data: z.array(ApiKey) }))
    .query(async ({ ctx }) => ({ data: await listApiKeys(ctx, ctx.user.id) })),

  revoke: authedProcedure
    .meta({
      sessionOnly: true,
      openapi: {
        method: 'DELETE',
        path: '/api-keys/{id}',
        tags,
        summary: 'Revoke an API key; it stops working at once',
        description:
          "Revokes one of the caller's keys; requests made with it answer 401 from now on. Another user's key answers 404.",
        errorResponses: [401, 403, 404, 500],
      },
    })
    .input(z.object({ id: z.string().min(1).max(100) }))
    .output(Message)
    .mutation(async ({ ctx, input }) => {
      await revokeOwnApiKey(ctx, ctx.user.id, input.id);
      return { message: 'API key revoked' };
    }),
});
