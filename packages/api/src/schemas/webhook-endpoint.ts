import { z } from 'zod';
import { Timestamp, Uuid } from './formats';

// The wire shapes of outgoing-webhook endpoints (integrations §2, docs/webhooks.md).

/** The event types an endpoint subscribes to (services/webhooks/events.ts SUBSCRIBABLE_EVENTS). */
export const SubscribableEvent = z.enum([
  'cfdi.imported',
  'invoice.payment_status.updated',
  'cfdi.cancelled',
  'sat_sync.completed',
  'sat_sync.failed',
  'subscription.updated',
]);

const Eventos = z.array(SubscribableEvent).min(1).max(20);
const Url = z.string().trim().min(1).max(2000);
const Descripcion = z.string().trim().max(500);
const Id = z.string().min(1).max(100);

const example = {
  id: '3f6c2a1e-8b4d-4c7a-9e5f-1a2b3c4d5e6f',
  url: 'https://example.com/folio/webhooks',
  eventos: ['cfdi.imported', 'invoice.payment_status.updated'],
  descripcion: 'Contabilidad',
  activo: true,
  motivo_desactivacion: null,
  created_at: '2026-11-25T18:00:00.000Z',
} as const;

export const WebhookEndpoint = z
  .object({
    id: Uuid,
    url: z.string(),
    eventos: z.array(z.string()),
    descripcion: z.string().nullable(),
    activo: z.boolean(),
    motivo_desactivacion: z.string().nullable().meta({
      description: 'Why Folio turned it off (`gone`: a 410; `failing`: 3 days of failures); null otherwise',
    }),
    created_at: Timestamp,
  })
  .meta({ id: 'WebhookEndpoint', example });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** What POST answers once: the signing secret, never shown again. */
export const NewWebhookEndpoint = WebhookEndpoint.extend({
  secret: z.string().meta({ description: '`whsec_…`: signs every delivery; shown only in this answer' }),
}).meta({
  id: 'NewWebhookEndpoint',
  example: { ...example, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
});

export const WebhookEndpointId = z.object({ id: Id });

export const CreateWebhookEndpointInput = z
  .object({ url: Url, eventos: Eventos, descripcion: Descripcion.optional() })
  .meta({
    example: {
      url: 'https://example.com/folio/webhooks',
      eventos: ['cfdi.imported', 'invoice.payment_status.updated'],
      descripcion: 'Contabilidad',
    },
  });

export const UpdateWebhookEndpointInput = WebhookEndpointId.extend({
  url: Url.optional(),
  eventos: Eventos.optional(),
  activo: z.boolean().optional(),
  descripcion: Descripcion.nullable().optional(),
}).meta({ example: { activo: true, eventos: ['cfdi.cancelled'] } });

export const RotateWebhookSecretInput = WebhookEndpointId.extend({
  grace_hours: z.number().int().min(0).max(24).optional().meta({
    description: 'Hours the old secret keeps signing beside the new one (0–24, default 0)',
  }),
}).meta({ example: { grace_hours: 24 } });

export const RotatedWebhookSecret = z
  .object({
    secret: z.string(),
    previous_valid_until: Timestamp.nullable().meta({
      description: 'Until when deliveries carry the old signature too; null without a grace period',
    }),
  })
  .meta({
    id: 'RotatedWebhookSecret',
    example: { secret: 'whsec_Zx1…', previous_valid_until: '2026-11-26T18:00:00.000Z' },
  });

export const WebhookDelivery = z
  .object({
    id: Uuid,
    event_id: z.string().meta({ description: 'The `webhook-id` header of every attempt (`msg_…`)' }),
    event_type: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .meta({
    id: 'WebhookDelivery',
    example: {
      id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      event_id: 'msg_5f1e0c2b9a8d4e7f8a6b3c2d1e0f9a8b',
      event_type: 'cfdi.imported',
      status: 'failed',
      attempts: 7,
      last_status_code: 500,
      last_error: null,
      next_attempt_at: null,
      created_at: '2026-11-25T18:05:00.000Z',
    },
  });

export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const ListWebhookDeliveriesInput = WebhookEndpointId.extend({
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const RedeliverWebhookInput = WebhookEndpointId.extend({ deliveryId: Id });
