import type { Delivery } from '@folio/billing-dev';
import { subscriptions } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditActions,
  checkout,
  countRows,
  current,
  deliverSigned,
  devOf,
  postWebhook,
  subscribe,
  subscriptionRow,
} from './billing-helpers';
import { APP_URL, expectError, signUpVerified, startTestApp, type TestApp, type TestUser } from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A trialing BASIC user and the events the provider sent for it. */
async function trialingUser(): Promise<{ u: TestUser; subscriptionId: string; events: Event[] }> {
  const u = await signUpVerified(t);
  const before = devOf(t).deliveries.length;
  const { subscriptionId } = await subscribe(t, u, { plan: 'BASIC' });
  return {
    u,
    subscriptionId,
    events: devOf(t)
      .deliveries.slice(before)
      .map((d) => d.event),
  };
}

type Event = Delivery['event'];
const withNewId = (event: Event, suffix: string) => ({ ...event, id: `${event.id}_${suffix}` });

describe('POST /api/webhooks/stripe: signatures', () => {
  it('answers 200 {received, outcome} to what the provider sends', async () => {
    const { events } = await trialingUser();
    const res = await deliverSigned(t, withNewId(events[0]!, 'again'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, outcome: 'processed' });
    expect(devOf(t).deliveries.every((d) => d.status === 200)).toBe(true);
  });

  it('answers 400 Bad Request to a missing, wrong or tampered signature, touching nothing', async () => {
    const { u, events } = await trialingUser();
    const event = withNewId(events[0]!, 'forged');
    (event.data.object as { status: string }).status = 'canceled';
    const payload = JSON.stringify(event);
    const rowBefore = await subscriptionRow(t, u.id);
    const eventsBefore = await countRows(t, 'webhook_events');

    await expectError(await postWebhook(t, payload, null), 400, 'Bad Request');
    const wrongSecret = devOf(t).sign(payload, { secret: 'whsec_not_ours' });
    expect(await expectError(await postWebhook(t, payload, wrongSecret), 400, 'Bad Request')).toMatch(
      /signature/i,
    );
    const signedOther = devOf(t).sign(JSON.stringify(events[0]));
    await expectError(await postWebhook(t, payload, signedOther), 400, 'Bad Request');
    await expectError(await postWebhook(t, payload, 'garbage'), 400, 'Bad Request');

    expect(await subscriptionRow(t, u.id)).toEqual(rowBefore);
    expect(await countRows(t, 'webhook_events')).toBe(eventsBefore);
  });

  it('answers 400 to an event signed longer ago than the 300 s tolerance', async () => {
    const { events } = await trialingUser();
    const old = Math.floor(Date.now() / 1000) - 301;
    const res = await deliverSigned(t, withNewId(events[0]!, 'old'), old);
    expect(await expectError(res, 400, 'Bad Request')).toMatch(/tolerance/);
    const recent = Math.floor(Date.now() / 1000) - 250;
    expect((await deliverSigned(t, withNewId(events[0]!, 'recent'), recent)).status).toBe(200);
  });
});

describe('POST /api/webhooks/stripe: delivery semantics', () => {
  it('does nothing for a redelivered event (its id is recorded with its effect)', async () => {
    const { u, subscriptionId, events } = await trialingUser();
    const syncs = (await auditActions(t, u.id, 'subscription.sync')).length;
    const res = await deliverSigned(t, events[0]!);
    expect(await res.json()).toEqual({ received: true, outcome: 'duplicate' });
    expect((await auditActions(t, u.id, 'subscription.sync')).length).toBe(syncs);
    // Two concurrent redeliveries of a new event: one applies it, the other is a duplicate.
    await devOf(t).endTrial(subscriptionId);
    const fresh = withNewId(events[0]!, 'concurrent');
    const both = await Promise.all([deliverSigned(t, fresh), deliverSigned(t, fresh)]);
    const outcomes = await Promise.all(both.map(async (r) => (await r.json()).outcome));
    expect(outcomes.sort()).toEqual(['duplicate', 'processed']);
  });

  it('ignores the order of events: a stale snapshot arriving late leaves the current state', async () => {
    const { u, subscriptionId, events } = await trialingUser();
    await devOf(t).endTrial(subscriptionId);
    expect((await current(t, u)).status).toBe('ACTIVE');
    // The "created" event (trialing in its payload) arrives again, late, under a new id.
    const late = await deliverSigned(t, withNewId(events[0]!, 'late'));
    expect((await late.json()).outcome).toBe('processed');
    expect((await current(t, u)).status).toBe('ACTIVE');
  });

  it('ends in the right state when checkout.session.completed comes before customer.subscription.created', async () => {
    const u = await signUpVerified(t);
    const dev = devOf(t);
    const { sessionId } = await (await checkout(t, u, { plan: 'PRO' })).json();
    dev.connect(async () => new Response(null, { status: 503 }), `${APP_URL}/api/webhooks/stripe`);
    const before = dev.deliveries.length;
    try {
      await dev.completeCheckout(sessionId);
    } finally {
      dev.connect((req) => Promise.resolve(t.app.fetch(req)), `${APP_URL}/api/webhooks/stripe`);
    }
    const sent = dev.deliveries.slice(before).map((d) => d.event);
    expect(sent.map((e) => e.type)).toEqual(['customer.subscription.created', 'checkout.session.completed']);
    for (const event of [...sent].reverse()) expect((await deliverSigned(t, event)).status).toBe(200);
    expect(await current(t, u)).toMatchObject({ plan: 'PRO', status: 'TRIALING' });
  });

  it('finds the subscription of an invoice under parent.subscription_details (API 2026)', async () => {
    const { u, subscriptionId } = await trialingUser();
    const dev = devOf(t);
    const before = dev.deliveries.length;
    await dev.failRenewal(subscriptionId);
    const failed = dev.deliveries.slice(before).find((d) => d.event.type === 'invoice.payment_failed')!.event;
    expect(
      (failed.data.object as { parent: { subscription_details: { subscription: string } } }).parent
        .subscription_details.subscription,
    ).toBe(subscriptionId);
    // Only the invoice event, delivered again under a new id, is enough to bring the state.
    await t.handle.db.update(subscriptions).set({ status: 'TRIALING' }).where(eq(subscriptions.userId, u.id));
    expect((await deliverSigned(t, withNewId(failed, 'only'))).status).toBe(200);
    expect((await current(t, u)).status).toBe('PAST_DUE');
  });

  it('answers 200 to event types it does not handle, without recording them', async () => {
    const before = await countRows(t, 'webhook_events');
    const res = await deliverSigned(t, {
      id: 'evt_unhandled_1',
      object: 'event',
      type: 'charge.refunded',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'ch_1', object: 'charge' } },
    });
    expect(await res.json()).toEqual({ received: true, outcome: 'ignored' });
    expect(await countRows(t, 'webhook_events')).toBe(before);
  });

  it('answers 200 (ignored) to a subscription of a customer that is not ours', async () => {
    const { events } = await trialingUser();
    const foreign = withNewId(events[0]!, 'foreign');
    (foreign.data.object as { customer: string; id: string; metadata: object }).customer = 'cus_someone_else';
    (foreign.data.object as { id: string }).id = 'sub_someone_else';
    (foreign.data.object as { metadata: object }).metadata = {};
    expect(await (await deliverSigned(t, foreign)).json()).toEqual({ received: true, outcome: 'ignored' });
  });

  it('answers 500 when handling fails (provider unreachable), so the provider retries, and the retry applies it', async () => {
    const { u, subscriptionId, events } = await trialingUser();
    const dev = devOf(t);
    dev.connect(async () => new Response(null, { status: 503 }), `${APP_URL}/api/webhooks/stripe`);
    const before = dev.deliveries.length;
    try {
      await dev.endTrial(subscriptionId);
    } finally {
      dev.connect((req) => Promise.resolve(t.app.fetch(req)), `${APP_URL}/api/webhooks/stripe`);
    }
    const updated = dev.deliveries
      .slice(before)
      .find((d) => d.event.type === 'customer.subscription.updated')!;
    dev.failNextRequests(1);
    const failed = await deliverSigned(t, updated.event);
    await expectError(failed, 500, 'Internal Server Error');
    expect((await current(t, u)).status).toBe('TRIALING');
    const retried = await deliverSigned(t, updated.event);
    expect(await retried.json()).toEqual({ received: true, outcome: 'processed' });
    expect((await current(t, u)).status).toBe('ACTIVE');
    expect(events.length).toBeGreaterThan(0);
  });
});
