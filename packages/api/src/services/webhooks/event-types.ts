// The events Folio sends to API clients and their payloads (docs/webhooks.md). Types only, with no
// import, so the SDK's bundled .d.ts takes them as they are (its verifyWebhook returns them).
// Every `data` carries `updated_at` (ISO), as receivers may get events out of order.

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
