import type { Executor } from '@folio/db';
import { type EventOwner, insertEvents } from '@folio/db/queries/webhooks';
import type { WebhookEventData, WebhookEventType } from './event-types';

export type { WebhookEvent, WebhookEventData, WebhookEventType } from './event-types';

// The events Folio sends to API clients (docs/webhooks.md, integrations §2). Each is written by
// `emit` in the transaction of the change it reports, at the one place that change is made.

/** The types an endpoint may subscribe to (the test event goes to whoever asks for it). */
export const SUBSCRIBABLE_EVENTS = [
  'cfdi.imported',
  'invoice.payment_status.updated',
  'cfdi.cancelled',
  'sat_sync.completed',
  'sat_sync.failed',
  'subscription.updated',
] as const satisfies readonly WebhookEventType[];

/** Keeps `cfdi.imported` far under 20 KB: 100 ids of ≤ 40 characters are about 4 KB. */
export const CFDI_IMPORTED_MAX_IDS = 100;

/**
 * Writes events of one type for the owner's subscribed endpoints, in the caller's transaction (the
 * outbox: they exist exactly when the change commits). Nobody subscribed: one indexed read.
 */
export function emit<K extends WebhookEventType>(
  tx: Executor,
  owner: EventOwner,
  type: K,
  datas: WebhookEventData[K][],
  only?: string,
): Promise<number> {
  return insertEvents(tx, owner, type, datas, only);
}
