import type { RouteEntry } from './entry';

const tags = ['webhooks'];
const ours = "Another user's endpoint answers 404.";

/** The REST routes of outgoing-webhook endpoints (integrations §2, docs/webhooks.md). */
export const webhookEndpointsRoutes: RouteEntry[] = [
  {
    method: 'POST',
    path: '/webhook-endpoints',
    procedure: 'webhookEndpoints.create',
    docs: {
      tags,
      summary: 'Register a webhook endpoint (BASIC or PRO); its signing secret is shown only in this answer',
      description:
        'Folio POSTs the subscribed `eventos` to `url`, signed per Standard Webhooks with the `whsec_…` `secret` of this answer (never shown again; see the `webhooks` section for each event). `url` is `https://`; outside production also `http://` to loopback. Needs BASIC or PRO (FREE: 403 `plan_required`); at most 10 endpoints (403 `webhook_endpoint_limit_reached`). A `write` API key may call it.',
    },
    errors: [400, 401, 403, 500],
    rest: { successStatus: 201 },
  },
  {
    method: 'GET',
    path: '/webhook-endpoints',
    procedure: 'webhookEndpoints.list',
    docs: {
      tags,
      summary: 'Your webhook endpoints (never their secrets)',
      description:
        "The caller's endpoints in the order they were created, with whether each is active and why Folio turned it off (`motivo_desactivacion`).",
    },
    errors: [401, 500],
  },
  {
    method: 'GET',
    path: '/webhook-endpoints/{id}',
    procedure: 'webhookEndpoints.get',
    docs: {
      tags,
      summary: 'One webhook endpoint',
      description: `One endpoint of the caller, without its secret. ${ours}`,
    },
    errors: [401, 404, 500],
  },
  {
    method: 'PATCH',
    path: '/webhook-endpoints/{id}',
    procedure: 'webhookEndpoints.update',
    docs: {
      tags,
      summary: 'Change the url, eventos, activo or descripcion of an endpoint',
      description: `Changes only the fields sent. Turning an endpoint on again (\`activo: true\`) clears why Folio had turned it off. ${ours}`,
    },
    errors: [400, 401, 403, 404, 500],
  },
  {
    method: 'DELETE',
    path: '/webhook-endpoints/{id}',
    procedure: 'webhookEndpoints.delete',
    docs: {
      tags,
      summary: 'Delete a webhook endpoint and its delivery log',
      description: `Nothing more is delivered to it, pending deliveries included. ${ours}`,
    },
    errors: [401, 403, 404, 500],
  },
  {
    method: 'POST',
    path: '/webhook-endpoints/{id}/rotate-secret',
    procedure: 'webhookEndpoints.rotateSecret',
    docs: {
      tags,
      summary: 'Replace the signing secret; the new one is shown only in this answer',
      description: `For \`grace_hours\` (0–24, default 0) the old secret keeps signing beside the new one: each delivery carries both signatures, space-separated, so a receiver switches without losing events. ${ours}`,
    },
    errors: [400, 401, 403, 404, 500],
  },
  {
    method: 'POST',
    path: '/webhook-endpoints/{id}/test',
    procedure: 'webhookEndpoints.test',
    docs: {
      tags,
      summary: 'Send a webhook.test event to this endpoint',
      description: `Queues one \`webhook.test\` delivery to this endpoint, whatever it subscribes to; its outcome shows in the delivery log. An inactive endpoint answers 409. ${ours}`,
    },
    errors: [401, 403, 404, 409, 500],
  },
  {
    method: 'GET',
    path: '/webhook-endpoints/{id}/deliveries',
    procedure: 'webhookEndpoints.deliveries',
    docs: {
      tags,
      summary: "An endpoint's deliveries, newest first",
      description: `Each delivery's event (\`event_id\` is its \`webhook-id\`), status, attempts, last answer code or error, and the next attempt of a pending one; \`limit\` 1–100 (default 50). ${ours}`,
    },
    errors: [400, 401, 404, 500],
  },
  {
    method: 'POST',
    path: '/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver',
    procedure: 'webhookEndpoints.redeliver',
    docs: {
      tags,
      summary: 'Deliver a finished delivery once more, with the same webhook-id',
      description: `A succeeded or failed delivery gets one more attempt (new timestamp and signature, same \`webhook-id\`, so receivers dedupe). A pending one answers 409 \`webhook_delivery_pending\`. ${ours}`,
    },
    errors: [401, 403, 404, 409, 500],
  },
];
