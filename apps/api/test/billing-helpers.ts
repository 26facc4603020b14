import type { FakeStripe } from '@folio/billing-dev';
import { auditLog, billingCustomers, profiles, subscriptions, webhookEvents } from '@folio/db/schema';
import { and, asc, count, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, request, type TestApp, type TestUser } from './harness';

/** The offline provider of this test app. */
export const devOf = (t: TestApp): FakeStripe => {
  const dev = t.deps.billing.dev as FakeStripe | undefined;
  if (!dev) throw new Error('the test app is not on the offline provider');
  return dev;
};

export const checkout = (t: TestApp, u: TestUser, body: unknown, headers: Record<string, string> = {}) =>
  request(t, 'POST', '/api/subscription/create-checkout', {
    headers: { ...bearer(u.token), ...headers },
    body,
  });

export const portal = (t: TestApp, u: TestUser) =>
  request(t, 'POST', '/api/subscription/create-portal-session', { headers: bearer(u.token) });

export async function current(t: TestApp, u: TestUser) {
  const res = await request(t, 'GET', '/api/subscription', { headers: bearer(u.token) });
  expect(res.status).toBe(200);
  return res.json();
}

/** Back to FREE at once: the dev billing portal's "cancel now", as a person clicks it (303 back). */
export async function cancelNowInPortal(t: TestApp, u: TestUser) {
  const { url } = await (await portal(t, u)).json();
  const cancel = await t.app.request(`${new URL(url).pathname}/cancel-now`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  expect(cancel.status).toBe(303);
}

/** Checkout through the API, then Pay at the provider; returns the session and subscription ids. */
export async function subscribe(
  t: TestApp,
  u: TestUser,
  body: Record<string, unknown> = { plan: 'BASIC' },
): Promise<{ sessionId: string; subscriptionId: string }> {
  const res = await checkout(t, u, body);
  expect(res.status, await res.clone().text()).toBe(201);
  const { sessionId } = await res.json();
  const { subscription } = await devOf(t).completeCheckout(sessionId);
  return { sessionId, subscriptionId: subscription.id };
}

/** Posts a body to the webhook exactly as given, with a signature computed by the fake (or none). */
export function postWebhook(t: TestApp, payload: string, signature: string | null) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== null) headers['stripe-signature'] = signature;
  return t.app.request('/api/webhooks/stripe', { method: 'POST', headers, body: payload });
}

export const deliverSigned = (t: TestApp, event: object, timestamp?: number) => {
  const payload = JSON.stringify(event);
  return postWebhook(t, payload, devOf(t).sign(payload, { timestamp }));
};

export async function subscriptionRow(t: TestApp, userId: string) {
  const [row] = await t.handle.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  return row;
}

export async function countRows(t: TestApp, table: 'webhook_events' | 'billing_customers', userId?: string) {
  const db = t.handle.db;
  if (table === 'webhook_events') return (await db.select({ n: count() }).from(webhookEvents))[0]!.n;
  const where = userId ? eq(billingCustomers.userId, userId) : undefined;
  return (await db.select({ n: count() }).from(billingCustomers).where(where))[0]!.n;
}

export async function auditActions(t: TestApp, userId: string, action: string) {
  return t.handle.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.userId, userId), eq(auditLog.action, action)))
    .orderBy(asc(auditLog.createdAt));
}

/** The user's profiles oldest first, with their frozen state. */
export async function frozenState(t: TestApp, userId: string) {
  return t.handle.db
    .select({
      id: profiles.id,
      frozen: profiles.frozen,
      frozenReason: profiles.frozenReason,
      frozenAt: profiles.frozenAt,
    })
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .orderBy(asc(profiles.createdAt), asc(profiles.id));
}
