import { z } from 'zod';
import type { FileEntry } from './entry';

/** The payment provider's webhook: served, never documented. */
export const webhookRoutes: FileEntry[] = [
  {
    method: 'POST',
    path: '/webhooks/stripe',
    handler: 'stripeWebhook',
    protect: false,
    internal: true, // a generated client must not get a webhooksStripe() method
    docs: {
      operationId: 'webhooks-stripe',
      tags: ['webhooks'],
      summary: 'Stripe webhook: subscription changes reported by the payment provider',
      description:
        'The raw body is verified against the `Stripe-Signature` header. Events are applied once: a ' +
        'repeated event id answers 200 with `outcome: "duplicate"`, an event type Folio does not use ' +
        '`"ignored"`. A handler failure answers 500 so the provider retries.',
      requestParams: { header: z.object({ 'stripe-signature': z.string() }) },
      requestBody: {
        required: true,
        content: { 'application/json': { schema: z.object({}).catchall(z.unknown()) } },
      },
      responses: {
        200: {
          description: 'Processed, duplicate or ignored',
          content: {
            'application/json': {
              schema: z.object({
                received: z.literal(true),
                outcome: z.enum(['processed', 'duplicate', 'ignored']),
              }),
            },
          },
        },
      },
    },
    errors: [400, 500],
  },
];
