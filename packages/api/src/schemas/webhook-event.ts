import { z } from 'zod';
import { Timestamp, Uuid } from './formats';

// The body of each event Folio delivers (services/webhooks/event-types.ts, docs/webhooks.md), for the
// OpenAPI document's `webhooks` section. packages/api/test/openapi-webhooks.test.ts holds these to
// event-types.ts, type by type.

const UpdatedAt = Timestamp.meta({
  description: 'When the fact changed (order of delivery is not guaranteed)',
});

export const WEBHOOK_EVENT_DATA = {
  'cfdi.imported': z.object({
    profile_id: Uuid,
    imported: z.number().int(),
    duplicates: z.number().int(),
    rejected: z.number().int(),
    ids: z.array(z.string()).meta({ description: 'The stored CFDI ids, the first 100' }),
    count: z.number().int().meta({ description: 'How many were stored in all' }),
    updated_at: UpdatedAt,
  }),
  'invoice.payment_status.updated': z.object({
    invoice_id: Uuid,
    profile_id: Uuid,
    estado_anterior: z.string().nullable(),
    estado: z.string().nullable(),
    saldo: z.number().nullable(),
    updated_at: UpdatedAt,
  }),
  'cfdi.cancelled': z.object({
    cfdi_id: Uuid,
    profile_id: Uuid,
    fuente: z
      .string()
      .meta({ description: 'Who said so: SAT metadata, a status check, a substitution, the user' }),
    fecha_cancelacion: z.string().nullable(),
    updated_at: UpdatedAt,
  }),
  'sat_sync.completed': z.object({ sync_id: z.string(), profile_id: Uuid, updated_at: UpdatedAt }),
  'sat_sync.failed': z.object({
    sync_id: z.string(),
    profile_id: Uuid,
    error: z.string(),
    updated_at: UpdatedAt,
  }),
  'subscription.updated': z.object({ plan: z.string(), status: z.string(), updated_at: UpdatedAt }),
  'webhook.test': z.object({ endpoint_id: Uuid, updated_at: UpdatedAt }),
} as const;

export type WebhookEventName = keyof typeof WEBHOOK_EVENT_DATA;

/** `{type, timestamp, data}` of one event type, named for the document's components. */
export const webhookEventBody = <K extends WebhookEventName>(type: K) =>
  z
    .object({ type: z.literal(type), timestamp: Timestamp, data: WEBHOOK_EVENT_DATA[type] })
    .meta({ id: `WebhookEvent_${type.replaceAll('.', '_')}` });
