import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { WebhookEvent } from '../../api/src/services/webhooks/event-types';

// Receiving Folio's webhooks (docs/webhooks.md): the signature checked by the Standard Webhooks
// library (HMAC-SHA256 of `webhook-id.webhook-timestamp.body`, any of the space-separated signatures,
// the timestamp within 5 minutes), then the body as a typed event.

// From the server's own dependency-free file, by path so the published .d.ts inlines the types
// (a @folio/api import would stay an import of a package the SDK's users do not have).
export type {
  WebhookEvent,
  WebhookEventData,
  WebhookEventType,
} from '../../api/src/services/webhooks/event-types';
export { WebhookVerificationError };

/** Request headers as frameworks give them: a Fetch `Headers`, or Node's object (arrays joined). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function plainHeaders(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, key) => {
      out[key.toLowerCase()] = value;
    });
    return out;
  }
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value;
  }
  return out;
}

/**
 * Verifies a delivery and returns its event. `payload` is the raw body exactly as received (not
 * re-serialised JSON); `secret` the endpoint's `whsec_…`. Throws WebhookVerificationError when the
 * signature, the headers or the timestamp do not hold.
 */
export function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
): WebhookEvent {
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  return new Webhook(secret).verify(body, plainHeaders(headers)) as WebhookEvent;
}
