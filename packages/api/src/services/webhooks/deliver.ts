import type { Db, Executor } from '@folio/db';
import {
  type ClaimedDelivery,
  claimAttempt,
  disableEndpoint,
  type EndpointRow,
  endpointOwnerEmail,
  recordAttempt,
  recordEndpointOutcome,
} from '@folio/db/queries/webhooks';
import { enqueueEmail } from '@folio/email';
import type { Logger } from '../../context';
import { unseal } from '../crypto/envelope';
import type { EfirmaKeyring } from '../efirma/keyring';
import { DELIVERY_TIMEOUT_MS, DISABLE_AFTER_MS, parseRetryAfter, retryDelaySeconds } from './rules';
import { postWebhook } from './send';
import { signedHeaders } from './signing';

// One attempt at one delivery (docs/webhooks.md#delivery): claimed, signed anew, posted, and its
// outcome recorded in one transaction with what follows from it — the next attempt's job, or the
// endpoint turned off (410 at once, or 3 days of failures) with a mail to its owner.

export interface DeliveryDeps {
  db: Db;
  keyring: EfirmaKeyring;
  log: Logger;
  /** Production: deliveries connect only to public addresses (ssrf.ts). */
  production: boolean;
  /** A receiver's time to answer; DELIVERY_TIMEOUT_MS (10 s) unless a test shortens it. */
  timeoutMs?: number;
  kickEmail(): void;
  now?: () => Date;
}

/** Schedules attempt number `attempt` at `at`, in the transaction that records the failure before it. */
export type ScheduleAttempt = (tx: Executor, attempt: number, at: Date) => Promise<unknown>;

export type AttemptOutcome = 'skipped' | 'succeeded' | 'retrying' | 'failed' | 'disabled';

/** What an endpoint's sealed secrets are bound to (the previous one is the current one moved). */
export const secretBinding = (endpointId: string) => ['webhook', endpointId];

const secretOf = (keyring: EfirmaKeyring, e: EndpointRow, which: 'current' | 'previous') =>
  unseal(
    keyring,
    secretBinding(e.id),
    which === 'current'
      ? { keyVersion: e.keyVersion, wrappedKey: e.wrappedKey, payload: e.secret }
      : { keyVersion: e.previousKeyVersion!, wrappedKey: e.previousWrappedKey!, payload: e.previousSecret! },
  ).toString('utf8');

/** The secrets that sign now: the current one, and the previous one while its grace period lasts. */
export function signingSecrets(keyring: EfirmaKeyring, e: EndpointRow, now: Date): string[] {
  const keep = e.previousSecret && e.previousExpiresAt && e.previousExpiresAt > now;
  return keep
    ? [secretOf(keyring, e, 'current'), secretOf(keyring, e, 'previous')]
    : [secretOf(keyring, e, 'current')];
}

/** The body every attempt of an event sends (the same bytes each time). */
export const eventBody = (c: Pick<ClaimedDelivery, 'event'>) =>
  JSON.stringify({ type: c.event.type, timestamp: c.event.createdAt.toISOString(), data: c.event.data });

export async function deliverAttempt(
  deps: DeliveryDeps,
  deliveryId: string,
  attempt: number,
  schedule: ScheduleAttempt,
): Promise<AttemptOutcome> {
  const now = deps.now ?? (() => new Date());
  const timeoutMs = deps.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const claimed = await claimAttempt(deps.db, deliveryId, attempt, Math.ceil(timeoutMs / 1000) + 60);
  if (!claimed) return 'skipped';
  const { delivery, endpoint, event } = claimed;
  if (!endpoint.activo) {
    await recordAttempt(deps.db, delivery.id, {
      status: 'failed',
      statusCode: null,
      error: 'endpoint inactive',
    });
    return 'failed';
  }
  const body = eventBody(claimed);
  const headers = signedHeaders(signingSecrets(deps.keyring, endpoint, now()), event.id, now(), body);
  const result = await postWebhook(endpoint.url, body, headers, { timeoutMs, guard: deps.production });
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const attempts = delivery.attempts;
  const detail = { deliveryId, endpointId: endpoint.id, eventId: event.id, attempts, status: result.status };
  let mail = false;
  const outcome = await deps.db.transaction(async (tx): Promise<AttemptOutcome> => {
    if (ok) {
      await recordAttempt(tx, delivery.id, { status: 'succeeded', statusCode: result.status, error: null });
      await recordEndpointOutcome(tx, endpoint.id, true);
      return 'succeeded';
    }
    const error = result.error ?? `HTTP ${result.status}`;
    const failingSince = await recordEndpointOutcome(tx, endpoint.id, false);
    const reason =
      result.status === 410
        ? 'gone'
        : failingSince && now().getTime() - failingSince.getTime() >= DISABLE_AFTER_MS
          ? 'failing'
          : null;
    if (reason) {
      await recordAttempt(tx, delivery.id, { status: 'failed', statusCode: result.status, error });
      mail = await disableEndpoint(tx, endpoint.id, reason);
      if (mail) await mailOwner(tx, endpoint, reason);
      return 'disabled';
    }
    const wait = retryDelaySeconds(attempts, parseRetryAfter(result.retryAfter, now()));
    if (wait === null) {
      await recordAttempt(tx, delivery.id, { status: 'failed', statusCode: result.status, error });
      return 'failed';
    }
    const at = new Date(now().getTime() + wait * 1000);
    await recordAttempt(tx, delivery.id, {
      status: 'pending',
      statusCode: result.status,
      error,
      nextAttemptAt: at,
      queuedAttempt: attempts,
    });
    await schedule(tx, attempts, at);
    return 'retrying';
  });
  if (mail) deps.kickEmail();
  if (outcome === 'succeeded') deps.log.info(detail, 'webhook delivered');
  else deps.log.warn({ ...detail, error: result.error, outcome }, 'webhook delivery failed');
  return outcome;
}

const REASONS = {
  gone: 'respondió 410 Gone',
  failing: 'no aceptó ninguna entrega durante 3 días',
} as const;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The owner learns that the endpoint was turned off, why, and how to turn it back on. */
async function mailOwner(tx: Executor, endpoint: EndpointRow, reason: keyof typeof REASONS): Promise<void> {
  const to = await endpointOwnerEmail(tx, endpoint.id);
  if (!to) return;
  const text = `Desactivamos tu endpoint de webhooks ${endpoint.url} porque ${REASONS[reason]}. Los eventos nuevos no se le enviarán hasta que lo reactives (PATCH /api/webhook-endpoints/${endpoint.id} con {"activo": true}).`;
  await enqueueEmail(tx, {
    to,
    subject: 'Folio: desactivamos un endpoint de webhooks',
    text,
    html: `<p>${escapeHtml(text)}</p>`,
    kind: 'webhook-disabled',
  });
}
