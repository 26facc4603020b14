import { isWebhookEventRecorded, recordWebhookEvent } from '@folio/db/queries/billing-webhook-events';
import type Stripe from 'stripe';
import { type BillingDeps, syncSubscription } from './sync';

/** Events that can change a subscription; each one only says "re-read subscription X". */
export const HANDLED_EVENTS: ReadonlySet<string> = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'customer.subscription.trial_will_end',
  'invoice.paid',
  'invoice.payment_failed',
]);

type AnyObject = { object?: string; [key: string]: unknown };
const idOf = (v: unknown): string | null =>
  typeof v === 'string'
    ? v
    : v && typeof v === 'object' && 'id' in v
      ? String((v as { id: unknown }).id)
      : null;

/**
 * The subscription an event is about (API 2026: an invoice names it under
 * `parent.subscription_details.subscription`; a checkout session only in subscription mode).
 */
export function subscriptionIdOf(event: Pick<Stripe.Event, 'type' | 'data'>): string | null {
  const o = event.data.object as unknown as AnyObject;
  if (event.type.startsWith('customer.subscription.')) return idOf(o.id);
  if (event.type === 'checkout.session.completed')
    return o.mode === 'subscription' ? idOf(o.subscription) : null;
  if (event.type.startsWith('invoice.')) {
    const parent = o.parent as
      | { subscription_details?: { subscription?: unknown } | null }
      | null
      | undefined;
    return idOf(parent?.subscription_details?.subscription);
  }
  return null;
}

export type WebhookOutcome = 'processed' | 'duplicate' | 'ignored';

export type WebhookAnswer =
  | { status: 200; body: { received: true; outcome: WebhookOutcome } }
  // Codes of @folio/api's ERROR_CODES (which this package cannot import); apps/api checks they are.
  | {
      status: 400 | 500;
      body: { error: string; message: string; code: 'signature_invalid' | 'internal_error' };
    };

const bad = (message: string): WebhookAnswer => ({
  status: 400,
  body: { error: 'Bad Request', message, code: 'signature_invalid' },
});

/**
 * The provider's webhook, framework-free: the exact bytes received and the `Stripe-Signature` header.
 * A bad or stale signature (300 s tolerance) → 400 with nothing touched. A handled event re-reads its
 * subscription from the provider (so order does not matter) and applies it in one transaction with
 * the event id (so a redelivery does nothing). Other types → 200. A failure → 500 and the provider retries.
 */
export async function handleStripeWebhook(
  deps: BillingDeps,
  rawBody: Uint8Array | string,
  signature: string | null | undefined,
): Promise<WebhookAnswer> {
  if (!signature) return bad('Missing Stripe-Signature header');
  let event: Stripe.Event;
  try {
    event = await deps.billing.stripe.webhooks.constructEventAsync(
      rawBody,
      signature,
      deps.billing.webhookSecret,
    );
  } catch (err) {
    const reason = err instanceof Error ? (err.message.split('\n')[0] ?? '') : '';
    deps.log.warn({ reason }, 'stripe webhook refused: signature');
    return bad(
      `Invalid Stripe-Signature: ${reason.replace(/ Are you passing.*$/, '') || 'verification failed'}`,
    );
  }
  try {
    const outcome = await applyEvent(deps, event);
    deps.log.info({ eventId: event.id, type: event.type, outcome }, 'stripe webhook');
    return { status: 200, body: { received: true, outcome } };
  } catch (err) {
    deps.log.error(
      { err, eventId: event.id, type: event.type },
      'stripe webhook failed; the provider will retry',
    );
    return {
      status: 500,
      body: {
        error: 'Internal Server Error',
        message: 'The event could not be processed; it will be retried',
        code: 'internal_error',
      },
    };
  }
}

async function applyEvent(deps: BillingDeps, event: Stripe.Event): Promise<WebhookOutcome> {
  const subscriptionId = HANDLED_EVENTS.has(event.type) ? subscriptionIdOf(event) : null;
  if (!subscriptionId) return 'ignored';
  // Cheap check first, so a redelivery costs no provider call; the insert below is what decides.
  if (await isWebhookEventRecorded(deps.db, event.id)) return 'duplicate';
  const { result } = await syncSubscription(deps, {
    subscriptionId,
    customerId: idOf((event.data.object as unknown as AnyObject).customer),
    source: { kind: 'webhook', eventId: event.id, eventType: event.type },
    record: (tx) => recordWebhookEvent(tx, event.id, event.type),
  });
  return result;
}
