import { z } from 'zod';
import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import { WEBHOOK_EVENT_DATA, type WebhookEventName, webhookEventBody } from './schemas/webhook-event';

// The OpenAPI 3.1 `webhooks` section: what Folio POSTs to a registered endpoint, one operation per
// event type (docs/webhooks.md). trpc-to-openapi has no option for it, so zod-openapi builds it alone
// and buildOpenApiDocument merges it and its component schemas in.

const DeliveryHeaders = z.object({
  'webhook-id': z.string().meta({
    description:
      'The event id (`msg_…`, never containing "."): the same on every retry and redelivery, so a receiver dedupes by it',
  }),
  'webhook-timestamp': z
    .string()
    .meta({ description: 'Seconds since the epoch when this attempt was signed' }),
  'webhook-signature': z.string().meta({
    description:
      "`v1,` + base64 HMAC-SHA256 of `webhook-id.webhook-timestamp.body` under the endpoint secret (the bytes after `whsec_`, base64-decoded); during a rotation's grace period two of them, space-separated. The SDK's `verifyWebhook` checks it.",
  }),
});

const SUMMARIES: Record<WebhookEventName, string> = {
  'cfdi.imported': 'An import batch stored CFDI (counts and the first 100 ids)',
  'invoice.payment_status.updated': "An invoice's payment status changed (old and new estado, saldo)",
  'cfdi.cancelled': 'A CFDI became cancelled (SAT metadata, a status check, a substitution or the user)',
  'sat_sync.completed': 'A SAT sync finished',
  'sat_sync.failed': 'A SAT sync failed',
  'subscription.updated': "The user's plan or subscription status changed",
  'webhook.test': 'Sent by POST /webhook-endpoints/{id}/test to that endpoint only',
};

function operation(type: WebhookEventName) {
  return {
    post: {
      operationId: `webhook-${type.replaceAll(/[._]/g, '-')}`,
      tags: ['webhooks'],
      summary: SUMMARIES[type],
      description:
        `Folio POSTs \`${type}\` to each active endpoint subscribed to it, signed per Standard Webhooks. ` +
        'Any 2xx within 10 s acknowledges it; anything else (3xx included) is retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h, honouring `Retry-After`; a 410 turns the endpoint off.',
      security: [],
      requestParams: { header: DeliveryHeaders },
      requestBody: { required: true, content: { 'application/json': { schema: webhookEventBody(type) } } },
      responses: {
        200: { description: 'Received (any 2xx)' },
        410: { description: 'Gone: Folio turns the endpoint off and mails its owner' },
      },
    },
  };
}

/** The `webhooks` of the document and the component schemas they reference. */
export function webhooksSection() {
  const webhooks: ZodOpenApiPathsObject = {};
  for (const type of Object.keys(WEBHOOK_EVENT_DATA) as WebhookEventName[]) webhooks[type] = operation(type);
  const doc = createDocument({ openapi: '3.1.0', info: { title: 'webhooks', version: '0' }, webhooks });
  return { webhooks: doc.webhooks ?? {}, schemas: doc.components?.schemas ?? {} };
}
