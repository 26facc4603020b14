import { z } from 'zod';
import { Message } from '../schemas/user';
import {
  CreateWebhookEndpointInput,
  ListWebhookDeliveriesInput,
  NewWebhookEndpoint,
  RedeliverWebhookInput,
  RotatedWebhookSecret,
  RotateWebhookSecretInput,
  UpdateWebhookEndpointInput,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointId,
} from '../schemas/webhook-endpoint';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  rotateWebhookSecret,
  testWebhookEndpoint,
  updateWebhookEndpoint,
} from '../services/webhooks/endpoints';
import { authedProcedure, router } from '../trpc';

// Not session-only: the audience is API clients, so a `write` key manages its user's endpoints and a
// `read` key lists them (queries read, anything else writes).
export const webhookEndpointsRouter = router({
  create: authedProcedure
    .input(CreateWebhookEndpointInput)
    .output(z.object({ message: z.string(), data: NewWebhookEndpoint }))
    .mutation(async ({ ctx, input }) => ({
      message: 'Webhook endpoint created; store its secret now, it is not shown again',
      data: await createWebhookEndpoint(ctx, ctx.user.id, input),
    })),

  list: authedProcedure
    .input(z.object({}).optional())
    .output(z.object({ data: z.array(WebhookEndpoint) }))
    .query(async ({ ctx }) => ({ data: await listWebhookEndpoints(ctx, ctx.user.id) })),

  get: authedProcedure
    .input(WebhookEndpointId)
    .output(z.object({ data: WebhookEndpoint }))
    .query(async ({ ctx, input }) => ({ data: await getWebhookEndpoint(ctx, ctx.user.id, input.id) })),

  update: authedProcedure
    .input(UpdateWebhookEndpointInput)
    .output(z.object({ message: z.string(), data: WebhookEndpoint }))
    .mutation(async ({ ctx, input: { id, ...patch } }) => ({
      message: 'Webhook endpoint updated',
      data: await updateWebhookEndpoint(ctx, ctx.user.id, id, patch),
    })),

  delete: authedProcedure
    .input(WebhookEndpointId)
    .output(Message)
    .mutation(async ({ ctx, input }) => {
      await deleteWebhookEndpoint(ctx, ctx.user.id, input.id);
      return { message: 'Webhook endpoint deleted' };
    }),

  rotateSecret: authedProcedure
    .input(RotateWebhookSecretInput)
    .output(z.object({ message: z.string(), data: RotatedWebhookSecret }))
    .mutation(async ({ ctx, input: { id, ...opts } }) => ({
      message: 'Secret rotated; store it now, it is not shown again',
      data: await rotateWebhookSecret(ctx, ctx.user.id, id, opts),
    })),

  test: authedProcedure
    .input(WebhookEndpointId)
    .output(Message)
    .mutation(async ({ ctx, input }) => {
      await testWebhookEndpoint(ctx, ctx.user.id, input.id);
      return { message: 'webhook.test queued for delivery' };
    }),

  deliveries: authedProcedure
    .input(ListWebhookDeliveriesInput)
    .output(z.object({ data: z.array(WebhookDelivery) }))
    .query(async ({ ctx, input: { id, ...opts } }) => ({
      data: await listWebhookDeliveries(ctx, ctx.user.id, id, opts),
    })),

  redeliver: authedProcedure
    .input(RedeliverWebhookInput)
    .output(z.object({ message: z.string(), data: WebhookDelivery }))
    .mutation(async ({ ctx, input }) => ({
      message: 'Delivery queued again',
      data: await redeliverWebhook(ctx, ctx.user.id, input.id, input.deliveryId),
    })),
});
