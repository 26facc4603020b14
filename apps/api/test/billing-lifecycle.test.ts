import { PLAN_LIMITS } from '@folio/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditActions,
  checkout,
  current,
  devOf,
  frozenState,
  portal,
  subscribe,
  subscriptionRow,
} from './billing-helpers';
import {
  APP_URL,
  bearer,
  createProfile,
  expectError,
  request,
  rfcMoral,
  signUpVerified,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

let rfcSeq = 0;
async function addProfiles(u: TestUser, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(
      (await createProfile(t, u, { nombre: `Perfil ${i}`, rfc: rfcMoral(++rfcSeq), tipo_persona: 'MORAL' }))
        .id,
    );
  }
  return ids;
}

const frozenIds = async (u: TestUser) =>
  (await frozenState(t, u.id)).filter((p) => p.frozen).map((p) => p.id);

const rename = (u: TestUser, id: string) =>
  request(t, 'PUT', `/api/profiles/${id}`, { headers: bearer(u.token), body: { nombre: 'Nuevo nombre' } });

const DAY_MS = 86_400_000;

describe('subscription lifecycle, driven by the provider', () => {
  it('checkout → TRIALING → ACTIVE at trial end → failed renewal PAST_DUE → UNPAID (FREE limits, profiles frozen) → paid again', async () => {
    const u = await signUpVerified(t);
    const dev = devOf(t);
    const { subscriptionId } = await subscribe(t, u, { plan: 'BASIC' });

    const trialing = await current(t, u);
    expect(trialing).toMatchObject({
      plan: 'BASIC',
      status: 'TRIALING',
      planPrice: 299,
      cancelAtPeriodEnd: false,
      stripeSubscriptionId: subscriptionId,
      limits: PLAN_LIMITS.BASIC,
    });
    expect(trialing.stripeCustomerId).toMatch(/^cus_/);
    // Period dates come from the subscription item: the trial is the first period.
    expect(Date.parse(trialing.currentPeriodEnd) - Date.parse(trialing.currentPeriodStart)).toBe(14 * DAY_MS);
    const [oldest, middle, newest] = await addProfiles(u, 3);

    await dev.endTrial(subscriptionId);
    const active = await current(t, u);
    expect(active).toMatchObject({ plan: 'BASIC', status: 'ACTIVE', limits: PLAN_LIMITS.BASIC });
    expect(active.currentPeriodStart).toBe(trialing.currentPeriodEnd);

    await dev.failRenewal(subscriptionId);
    expect(await current(t, u)).toMatchObject({ status: 'PAST_DUE', limits: PLAN_LIMITS.BASIC });
    expect(await frozenIds(u)).toEqual([]);

    await dev.exhaustRetries(subscriptionId);
    expect(await current(t, u)).toMatchObject({ plan: 'BASIC', status: 'UNPAID', limits: PLAN_LIMITS.FREE });
    const frozen = (await frozenState(t, u.id)).filter((p) => p.frozen);
    expect(frozen.map((p) => p.id)).toEqual([middle, newest]);
    for (const p of frozen) {
      expect(p.frozenReason).toBe('PLAN_LIMIT');
      expect(p.frozenAt).toBeInstanceOf(Date);
    }
    // Frozen profiles are read-only; the oldest one stays usable; FREE search quota applies.
    await expectError(await rename(u, newest!), 403, 'Forbidden');
    expect((await rename(u, oldest!)).status).toBe(200);
    const listed = await (await request(t, 'GET', '/api/profiles', { headers: bearer(u.token) })).json();
    expect(listed.data.filter((p: { frozen: boolean }) => p.frozen)).toHaveLength(2);
    const search = await request(t, 'GET', '/api/sat/search?query=agua', { headers: bearer(u.token) });
    expect(search.headers.get('x-quota-limit')).toBe('10');
    expect(await auditActions(t, u.id, 'profile.freeze')).toHaveLength(2);

    await dev.payAgain(subscriptionId);
    expect(await current(t, u)).toMatchObject({ plan: 'BASIC', status: 'ACTIVE', limits: PLAN_LIMITS.BASIC });
    expect(await frozenIds(u)).toEqual([]);
    expect((await rename(u, newest!)).status).toBe(200);
    expect(await auditActions(t, u.id, 'profile.unfreeze')).toHaveLength(2);
    expect((await auditActions(t, u.id, 'subscription.sync')).length).toBeGreaterThanOrEqual(5);
  });

  it('cancel at period end (the portal sets cancel_at): still ACTIVE with cancelAtPeriodEnd, then CANCELLED on FREE', async () => {
    const u = await signUpVerified(t);
    const dev = devOf(t);
    const { subscriptionId } = await subscribe(t, u, { plan: 'BASIC' });
    await dev.endTrial(subscriptionId);
    await addProfiles(u, 2);

    const scheduled = await dev.cancelAtPeriodEnd(subscriptionId);
    expect(scheduled).toMatchObject({ cancel_at_period_end: false, status: 'active' });
    expect(scheduled.cancel_at).toBeGreaterThan(0);
    expect(await current(t, u)).toMatchObject({ plan: 'BASIC', status: 'ACTIVE', cancelAtPeriodEnd: true });

    await dev.keepSubscription(subscriptionId);
    expect((await current(t, u)).cancelAtPeriodEnd).toBe(false);

    await dev.cancelAtPeriodEnd(subscriptionId);
    await dev.renew(subscriptionId); // the period ends
    const row = await subscriptionRow(t, u.id);
    expect(await current(t, u)).toEqual({
      plan: 'FREE',
      status: 'CANCELLED',
      planPrice: 0,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      stripeCustomerId: row!.stripeCustomerId,
      stripeSubscriptionId: null,
      limits: PLAN_LIMITS.FREE,
    });
    expect(row!.stripeCustomerId).toMatch(/^cus_/);
    expect(await frozenIds(u)).toHaveLength(1);
  });

  it('cancel now: CANCELLED with FREE limits and the surplus frozen; a new upgrade unfreezes them', async () => {
    const u = await signUpVerified(t);
    const dev = devOf(t);
    const { subscriptionId } = await subscribe(t, u, { plan: 'PRO' });
    const ids = await addProfiles(u, 4);

    await dev.cancelNow(subscriptionId);
    expect(await current(t, u)).toMatchObject({
      plan: 'FREE',
      status: 'CANCELLED',
      limits: PLAN_LIMITS.FREE,
    });
    expect(await frozenIds(u)).toEqual(ids.slice(1));
    await expectError(
      await request(t, 'POST', '/api/profiles', {
        headers: bearer(u.token),
        body: { nombre: 'Otro', rfc: rfcMoral(++rfcSeq), tipo_persona: 'MORAL' },
      }),
      403,
      'Forbidden',
    );

    // BASIC allows 3: the two oldest frozen ones thaw, the newest stays frozen.
    await subscribe(t, u, { plan: 'BASIC' });
    expect(await current(t, u)).toMatchObject({ plan: 'BASIC', status: 'ACTIVE' }); // no second trial
    expect(await frozenIds(u)).toEqual([ids[3]]);
    // PRO is unlimited: everything thaws.
    const sub = (await subscriptionRow(t, u.id))!.stripeSubscriptionId!;
    await dev.switchPlan(sub, 'PRO', 'monthly');
    expect(await current(t, u)).toMatchObject({ plan: 'PRO', status: 'ACTIVE', limits: PLAN_LIMITS.PRO });
    expect(await frozenIds(u)).toEqual([]);
  });

  it('a plan switch from the portal pages: PRO → BASIC freezes the newest surplus, BASIC → PRO thaws it', async () => {
    const u = await signUpVerified(t);
    await subscribe(t, u, { plan: 'PRO', billing: 'annual' });
    const ids = await addProfiles(u, 4);
    const { url } = await (await portal(t, u)).json();
    const path = new URL(url).pathname;

    const page = await t.app.request(path);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('pro_annual');

    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const down = await t.app.request(`${path}/switch`, form({ plan: 'BASIC', billing: 'monthly' }));
    expect(down.status).toBe(303);
    expect(down.headers.get('location')).toBe(path);
    expect(await current(t, u)).toMatchObject({ plan: 'BASIC', planPrice: 299, limits: PLAN_LIMITS.BASIC });
    expect(await frozenIds(u)).toEqual([ids[3]]);

    const up = await t.app.request(`${path}/switch`, form({ plan: 'PRO', billing: 'monthly' }));
    expect(up.status).toBe(303);
    expect(await current(t, u)).toMatchObject({ plan: 'PRO', planPrice: 599 });
    expect(await frozenIds(u)).toEqual([]);

    const cancel = await t.app.request(`${path}/cancel-now`, form({}));
    expect(cancel.status).toBe(303);
    expect(await current(t, u)).toMatchObject({ plan: 'FREE', status: 'CANCELLED' });
    // Nothing left to act on: the portal says so.
    expect((await t.app.request(`${path}/cancel-now`, form({}))).status).toBe(409);
  });

  it('a checkout for the other plan replaces the current subscription instead of adding a second one', async () => {
    const u = await signUpVerified(t);
    const dev = devOf(t);
    const first = await subscribe(t, u, { plan: 'BASIC' });
    await dev.endTrial(first.subscriptionId);
    const second = await subscribe(t, u, { plan: 'PRO' });
    await dev.settle(); // the provider reports the old subscription's cancellation later
    expect(dev.subscriptions.get(first.subscriptionId)!.status).toBe('canceled');
    expect(await current(t, u)).toMatchObject({
      plan: 'PRO',
      status: 'ACTIVE', // the trial was used on BASIC
      stripeSubscriptionId: second.subscriptionId,
    });
  });
});

describe('the hosted pages of the offline provider and the return from checkout', () => {
  it('checkout page → Pay → 303 to our success page, which shows the new plan', async () => {
    const u = await signUpVerified(t);
    const { sessionId, url } = await (
      await checkout(t, u, { plan: 'BASIC', promotionCode: 'bienvenida20' })
    ).json();
    const path = new URL(url).pathname;
    const page = await t.app.request(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('id="plan">BASIC');
    expect(html).toContain('14 días');
    expect(html).toContain('BIENVENIDA20');

    const paid = await t.app.request(`${path}/complete`, { method: 'POST' });
    expect(paid.status).toBe(303);
    const location = paid.headers.get('location')!;
    expect(location).toBe(`${APP_URL}/billing/success?session_id=${sessionId}`);
    const success = await t.app.request(new URL(location).pathname + new URL(location).search);
    expect(success.status).toBe(200);
    const text = await success.text();
    expect(text).toContain('id="plan">BASIC');
    expect(text).toContain('id="status">TRIALING');

    // The session is complete: paying again is refused, the page says so.
    expect((await t.app.request(`${path}/complete`, { method: 'POST' })).status).toBe(409);
    expect(await (await t.app.request(path)).text()).toContain('Esta sesión está completada.');
    expect((await t.app.request('/__dev/billing/checkout/cs_unknown')).status).toBe(404);
  });

  it('Decline → 303 to the cancel page; the user stays FREE', async () => {
    const u = await signUpVerified(t);
    const { url } = await (await checkout(t, u, { plan: 'PRO' })).json();
    const res = await t.app.request(`${new URL(url).pathname}/decline`, { method: 'POST' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${APP_URL}/billing/cancel`);
    expect((await t.app.request('/billing/cancel')).status).toBe(200);
    expect((await current(t, u)).plan).toBe('FREE');
  });

  it('the success page reconciles from the provider when the user is back before the webhook', async () => {
    const u = await signUpVerified(t);
    const dev = devOf(t);
    const { sessionId } = await (await checkout(t, u, { plan: 'PRO' })).json();
    // The webhook endpoint is unreachable for now.
    dev.connect(async () => new Response('down', { status: 503 }), `${APP_URL}/api/webhooks/stripe`);
    try {
      await dev.completeCheckout(sessionId);
      expect((await current(t, u)).plan).toBe('FREE');
      const page = await (await t.app.request(`/billing/success?session_id=${sessionId}`)).text();
      expect(page).toContain('id="status">TRIALING');
      expect(await current(t, u)).toMatchObject({ plan: 'PRO', status: 'TRIALING', limits: PLAN_LIMITS.PRO });
    } finally {
      dev.connect((req) => Promise.resolve(t.app.fetch(req)), `${APP_URL}/api/webhooks/stripe`);
    }
    // The provider's retries arrive later and change nothing.
    const missed = dev.deliveries.filter((d) => d.status === 503).map((d) => d.event);
    for (const event of missed) {
      const payload = JSON.stringify(event);
      const res = await t.app.request('/api/webhooks/stripe', {
        method: 'POST',
        headers: { 'stripe-signature': dev.sign(payload) },
        body: payload,
      });
      expect(res.status).toBe(200);
    }
    expect(await current(t, u)).toMatchObject({ plan: 'PRO', status: 'TRIALING' });
  });

  it('the success page of an unfinished session says the payment is pending', async () => {
    const u = await signUpVerified(t);
    const { sessionId } = await (await checkout(t, u, { plan: 'BASIC' })).json();
    expect(await (await t.app.request(`/billing/success?session_id=${sessionId}`)).text()).toContain('OPEN');
    expect((await current(t, u)).plan).toBe('FREE');
  });
});
