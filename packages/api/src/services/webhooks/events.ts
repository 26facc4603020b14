import type { Executor } from '@folio/db';
import { type EventOwner, insertEvents } from '@folio/db/queries/webhooks';

// The events Folio sends to API clients (docs/webhooks.md, integrations §2). Each is written by
// `emit` in the transaction of the change it reports, at the one place that change is made; every
// `data` carries `updated_at` (ISO), as receivers may get events out of order.

export interface WebhookEventData {
  /** Per import batch (one transaction): what it stored; `ids` capped at CFDI_IMPORTED_MAX_IDS, `count` is all. */
  'cfdi.imported': {
    profile_id: string;
    imported: number;
    duplicates: number;
    rejected: number;
    ids: string[];
    count: number;
    updated_at: string;
  };
  'invoice.payment_status.updated': {
    invoice_id: string;
    profile_id: string;
    estado_anterior: string | null;
    estado: string | null;
    saldo: number | null;
    updated_at: string;
  };
  /** From SAT's metadata, a status check, a substitution or the user's mark (`fuente`). */
  'cfdi.cancelled': {
    cfdi_id: string;
    profile_id: string;
    fuente: string;
    fecha_cancelacion: string | null;
    updated_at: string;
  };
  /** For the SAT sync job to emit when it ends. */
  'sat_sync.completed': { sync_id: string; profile_id: string; updated_at: string };
  'sat_sync.failed': { sync_id: string; profile_id: string; error: string; updated_at: string };
  'subscription.updated': { plan: string; status: string; updated_at: string };
  /** Sent by `POST /api/webhook-endpoints/{id}/test` to that endpoint only. */
  'webhook.test': { endpoint_id: string; updated_at: string };
}

export type WebhookEventType = keyof WebhookEventData;

/** What a receiver gets: the body of every delivery. */
export type WebhookEvent = {
  [K in WebhookEventType]: { type: K; timestamp: string; data: WebhookEventData[K] };
}[WebhookEventType];

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
