import type { DeliveryRow, EndpointRow } from '@folio/db/queries/webhooks';
import type { WebhookDelivery, WebhookEndpoint } from '../../schemas/webhook-endpoint';

/** An endpoint as the API shows it: never its secret. */
export const toEndpoint = (e: EndpointRow): WebhookEndpoint => ({
  id: e.id,
  url: e.url,
  eventos: e.eventos,
  descripcion: e.descripcion,
  activo: e.activo,
  motivo_desactivacion: e.disabledReason,
  created_at: e.createdAt.toISOString(),
});

/** A delivery of the log; `next_attempt_at` only while one is coming. */
export const toDelivery = (d: DeliveryRow, type: string): WebhookDelivery => ({
  id: d.id,
  event_id: d.eventId,
  event_type: type,
  status: d.status,
  attempts: d.attempts,
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  next_attempt_at: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
  created_at: d.createdAt.toISOString(),
});
