import { randomUUID } from 'node:crypto';
import { getEntitlements } from '@folio/billing';
import {
  deleteEndpoint,
  type EndpointRow,
  findDelivery,
  findEndpoint,
  insertEndpointWithinLimit,
  listDeliveries,
  listEndpoints,
  reopenDelivery,
  updateEndpoint,
} from '@folio/db/queries/webhooks';
import type { Context } from '../../context';
import { conflict, forbidden, invalidField, notFound, planRequired } from '../../errors';
import type { WebhookDelivery, WebhookEndpoint } from '../../schemas/webhook-endpoint';
import { audit } from '../audit';
import { seal } from '../crypto/envelope';
import { keyringOf } from '../efirma/store-efirma';
import { secretBinding } from './deliver';
import { emit, SUBSCRIBABLE_EVENTS } from './events';
import { checkEndpointUrl, MAX_ENDPOINTS, MAX_GRACE_HOURS, WEBHOOKS_REQUIRE } from './rules';
import { newSecret } from './signing';
import { toDelivery, toEndpoint } from './webhook-endpoint-dto';

// Managing a user's webhook endpoints (integrations §2). Another user's endpoint is not found (404),
// as everywhere in Folio: no hint that it exists.

function checkEventos(eventos: string[]): string[] {
  const unknown = eventos.filter((e) => !(SUBSCRIBABLE_EVENTS as readonly string[]).includes(e));
  if (unknown.length || !eventos.length)
    throw invalidField(
      'eventos',
      `eventos must list one or more of ${SUBSCRIBABLE_EVENTS.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`,
      'validation_failed',
    );
  return [...new Set(eventos)];
}

const sealSecret = (ctx: Context, endpointId: string, secret: string) => {
  const s = seal(keyringOf(ctx), secretBinding(endpointId), Buffer.from(secret, 'utf8'));
  return { keyVersion: s.keyVersion, wrappedKey: s.wrappedKey, secret: s.payload };
};

async function ownEndpoint(ctx: Context, userId: string, id: string): Promise<EndpointRow> {
  const row = await findEndpoint(ctx.db, userId, id);
  if (!row) throw notFound('Webhook endpoint not found');
  return row;
}

/** Registers an endpoint; its signing secret is in this answer only. */
export async function createWebhookEndpoint(
  ctx: Context,
  userId: string,
  input: { url: string; eventos: string[]; descripcion?: string },
): Promise<WebhookEndpoint & { secret: string }> {
  const { limits } = await getEntitlements(ctx.db, userId);
  if (!limits.apiAccess) throw planRequired(WEBHOOKS_REQUIRE);
  const url = checkEndpointUrl(input.url, ctx.config.production ?? false);
  const eventos = checkEventos(input.eventos);
  const id = randomUUID();
  const secret = newSecret();
  const row = await insertEndpointWithinLimit(
    ctx.db,
    { id, userId, url, eventos, descripcion: input.descripcion ?? null, ...sealSecret(ctx, id, secret) },
    MAX_ENDPOINTS,
  );
  if (!row)
    throw forbidden(
      `You already have ${MAX_ENDPOINTS} webhook endpoints; delete one to add another`,
      'webhook_endpoint_limit_reached',
    );
  await audit(ctx, 'webhook_endpoint.create', userId, {
    entity: 'webhook_endpoint',
    entityId: id,
    data: { url },
  });
  return { ...toEndpoint(row), secret };
}

export async function listWebhookEndpoints(ctx: Context, userId: string): Promise<WebhookEndpoint[]> {
  return (await listEndpoints(ctx.db, userId)).map(toEndpoint);
}

export async function getWebhookEndpoint(ctx: Context, userId: string, id: string): Promise<WebhookEndpoint> {
  return toEndpoint(await ownEndpoint(ctx, userId, id));
}

/** Changes url, eventos or activo; turning it back on clears why Folio had turned it off. */
export async function updateWebhookEndpoint(
  ctx: Context,
  userId: string,
  id: string,
  patch: { url?: string; eventos?: string[]; activo?: boolean; descripcion?: string | null },
): Promise<WebhookEndpoint> {
  await ownEndpoint(ctx, userId, id);
  const row = await updateEndpoint(ctx.db, userId, id, {
    ...(patch.url !== undefined ? { url: checkEndpointUrl(patch.url, ctx.config.production ?? false) } : {}),
    ...(patch.eventos !== undefined ? { eventos: checkEventos(patch.eventos) } : {}),
    ...(patch.descripcion !== undefined ? { descripcion: patch.descripcion } : {}),
    ...(patch.activo !== undefined
      ? { activo: patch.activo, disabledReason: null, ...(patch.activo ? { failingSince: null } : {}) }
      : {}),
  });
  if (!row) throw notFound('Webhook endpoint not found');
  return toEndpoint(row);
}

export async function deleteWebhookEndpoint(ctx: Context, userId: string, id: string): Promise<void> {
  if (!(await deleteEndpoint(ctx.db, userId, id))) throw notFound('Webhook endpoint not found');
  await audit(ctx, 'webhook_endpoint.delete', userId, { entity: 'webhook_endpoint', entityId: id });
}

/**
 * A new secret, shown once; the old one keeps signing beside it for `grace_hours` (0–24), so a
 * receiver can switch without losing events.
 */
export async function rotateWebhookSecret(
  ctx: Context,
  userId: string,
  id: string,
  input: { grace_hours?: number } = {},
): Promise<{ secret: string; previous_valid_until: string | null }> {
  const grace = input.grace_hours ?? 0;
  if (!Number.isInteger(grace) || grace < 0 || grace > MAX_GRACE_HOURS)
    throw invalidField(
      'grace_hours',
      `grace_hours must be a whole number from 0 to ${MAX_GRACE_HOURS}`,
      'validation_failed',
    );
  const old = await ownEndpoint(ctx, userId, id);
  const secret = newSecret();
  const until = grace ? new Date(Date.now() + grace * 3_600_000) : null;
  await updateEndpoint(ctx.db, userId, id, {
    ...sealSecret(ctx, id, secret),
    previousKeyVersion: until ? old.keyVersion : null,
    previousWrappedKey: until ? old.wrappedKey : null,
    previousSecret: until ? old.secret : null,
    previousExpiresAt: until,
  });
  await audit(ctx, 'webhook_endpoint.rotate_secret', userId, {
    entity: 'webhook_endpoint',
    entityId: id,
    data: { grace_hours: grace },
  });
  return { secret, previous_valid_until: until?.toISOString() ?? null };
}

/** Sends `webhook.test` to this endpoint (whatever it subscribes to, if it is active). */
export async function testWebhookEndpoint(ctx: Context, userId: string, id: string): Promise<void> {
  const endpoint = await ownEndpoint(ctx, userId, id);
  if (!endpoint.activo) throw conflict('The endpoint is inactive; activate it to test it');
  await ctx.db.transaction((tx) =>
    emit(tx, { userId }, 'webhook.test', [{ endpoint_id: id, updated_at: new Date().toISOString() }], id),
  );
}

/** The endpoint's deliveries, newest first. */
export async function listWebhookDeliveries(
  ctx: Context,
  userId: string,
  id: string,
  opts: { limit?: number } = {},
): Promise<WebhookDelivery[]> {
  await ownEndpoint(ctx, userId, id);
  const rows = await listDeliveries(ctx.db, id, Math.min(opts.limit ?? 50, 100));
  return rows.map((r) => toDelivery(r.delivery, r.type));
}

/** One more attempt at a finished delivery, with the same `webhook-id` (receivers dedupe by it). */
export async function redeliverWebhook(
  ctx: Context,
  userId: string,
  id: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  await ownEndpoint(ctx, userId, id);
  const existing = await findDelivery(ctx.db, id, deliveryId);
  if (!existing) throw notFound('Delivery not found');
  const row = await reopenDelivery(ctx.db, id, deliveryId);
  if (!row)
    throw conflict(
      'This delivery is still pending; its next attempt is scheduled',
      'webhook_delivery_pending',
    );
  return toDelivery(row, existing.type);
}
