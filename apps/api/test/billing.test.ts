import { createBillingProvider, PLAN_LIMITS } from '@folio/billing';
import { FakeStripe } from '@folio/billing-dev';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../src/env';
import {
  auditActions,
  checkout,
  countRows,
  current,
  devOf,
  portal,
  subscribe,
  subscriptionRow,
} from './billing-helpers';
import {
  APP_URL,
  bearer,
  caller,
  cookie,
  expectError,
  request,
  rfcMoral,
  setPlan,
  signUpVerified,
  startTestApp,
  type TestApp,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const plans = (query = '', headers: Record<string, string> = {}) =>
  request(t, 'GET', `/api/subscription/plans${query}`, { headers });

/** The limits table of docs/contract.md#plans, written out here independently of the code. */
const SPEC_LIMITS = {
  FREE: {
    profiles: 1,
    invoicesPerMonth: 50,
    expensesPerMonth: 50,
    exportPDF: false,
    exportExcel: false,
    reports: 'basic',
    support: 'none',
    apiAccess: false,
    satBasicSearchesPerMonth: 10,
    satAISearchesPerMonth: 0,
    satMaxResults: 10,
  },
  BASIC: {
    profiles: 3,
    invoicesPerMonth: 200,
    expensesPerMonth: 200,
    exportPDF: true,
    exportExcel: true,
    reports: 'complete',
    support: 'email',
    apiAccess: true,
    satBasicSearchesPerMonth: 100,
    satAISearchesPerMonth: 50,
    satMaxResults: 50,
  },
  PRO: {
    profiles: null,
    invoicesPerMonth: null,
    expensesPerMonth: null,
    exportPDF: true,
    exportExcel: true,
    reports: 'advanced',
    support: 'priority',
    apiAccess: true,
    satBasicSearchesPerMonth: null,
    satAISearchesPerMonth: 500,
    satMaxResults: null,
    satHasAIExplanations: true,
    satHasHistory: true,
    satHasFavorites: true,
    satHasAlerts: true,
  },
};

describe('GET /api/subscription/plans', () => {
  it('lists FREE, BASIC, PRO and ENTERPRISE monthly by default with the spec limits, prices and trials', async () => {
    const u = await signUpVerified(t);
    const res = await plans('', bearer(u.token));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.billing).toBe('monthly');
    expect(body.plans.map((p: { id: string }) => p.id)).toEqual(['FREE', 'BASIC', 'PRO', 'ENTERPRISE']);
    const byId = Object.fromEntries(body.plans.map((p: { id: string }) => [p.id, p]));
    expect(byId.FREE).toEqual({
      id: 'FREE',
      name: 'Free',
      price: 0,
      originalPrice: null,
      billing: 'monthly',
      limits: SPEC_LIMITS.FREE,
      trialDays: null,
    });
    expect(byId.BASIC).toMatchObject({
      price: 299,
      originalPrice: null,
      trialDays: 14,
      limits: SPEC_LIMITS.BASIC,
    });
    expect(byId.PRO).toMatchObject({
      price: 599,
      originalPrice: null,
      trialDays: 14,
      limits: SPEC_LIMITS.PRO,
    });
    expect(byId.ENTERPRISE).toMatchObject({ price: 1999, originalPrice: null, trialDays: null });
    // ENTERPRISE: no numeric limit, every feature on.
    for (const [k, v] of Object.entries(byId.ENTERPRISE.limits)) {
      expect([null, true, 'advanced', 'priority'], k).toContain(v);
    }
  });

  it('prices annual billing at 10 months with originalPrice the cost of 12', async () => {
    const u = await signUpVerified(t);
    const body = await (await plans('?billing=annual', bearer(u.token))).json();
    expect(body.billing).toBe('annual');
    expect(
      body.plans.map((p: { price: number; originalPrice: number }) => [p.price, p.originalPrice]),
    ).toEqual([
      [0, 0],
      [2990, 3588],
      [5990, 7188],
      [19990, 23988],
    ]);
    expect(body.plans.every((p: { billing: string }) => p.billing === 'annual')).toBe(true);
  });

  it('answers 400 Bad Request for an invalid billing period, 401 without a token', async () => {
    const u = await signUpVerified(t);
    expect(await expectError(await plans('?billing=weekly', bearer(u.token)), 400, 'Bad Request')).toMatch(
      /billing/,
    );
    await expectError(await plans(), 401, 'Unauthorized');
  });

  it('works with the access_token cookie and through the tRPC caller alike', async () => {
    const u = await signUpVerified(t);
    const viaCookie = await (await plans('?billing=annual', cookie(u.token))).json();
    const viaTrpc = await caller(t, u.token).subscription.plans({ billing: 'annual' });
    expect(viaTrpc).toEqual(viaCookie);
    await expect(
      caller(t, u.token).subscription.plans({ billing: 'weekly' as 'annual' }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});

describe('GET /api/subscription', () => {
  it('gives a user who never paid the FREE shape, without calling the provider', async () => {
    const u = await signUpVerified(t);
    const before = devOf(t).requests.length;
    expect(await current(t, u)).toEqual({
      plan: 'FREE',
      status: 'ACTIVE',
      planPrice: 0,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      stripeCustomerId: null,
      stripeSubscriptionId: null,
      limits: SPEC_LIMITS.FREE,
    });
    expect(devOf(t).requests.length).toBe(before);
  });

  it('still shows FREE (no customer id) to a user who opened a checkout but never paid', async () => {
    const u = await signUpVerified(t);
    expect((await checkout(t, u, { plan: 'PRO' })).status).toBe(201);
    expect(await current(t, u)).toMatchObject({ plan: 'FREE', stripeCustomerId: null });
  });

  it('answers 401 without a token; the tRPC caller gives the same body as REST', async () => {
    await expectError(await request(t, 'GET', '/api/subscription'), 401, 'Unauthorized');
    const u = await signUpVerified(t);
    await subscribe(t, u);
    expect(await caller(t, u.token).subscription.current()).toEqual(await current(t, u));
  });
});

describe('POST /api/subscription/create-checkout', () => {
  it('answers 201 with sessionId, url and message; the provider session lives 24 h and carries the trial', async () => {
    const u = await signUpVerified(t);
    const res = await checkout(t, u, { plan: 'BASIC' });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['message', 'sessionId', 'url']);
    expect(body.url).toBe(`${APP_URL}/__dev/billing/checkout/${body.sessionId}`);
    expect(body.message).toMatch(/14-day/);
    const view = devOf(t).describeCheckout(body.sessionId)!;
    expect(view).toMatchObject({
      plan: 'BASIC',
      billing: 'monthly',
      trialDays: 14,
      promotionCode: null,
      amount: 299,
    });
    expect(view.session.expires_at - view.session.created).toBe(24 * 3600);
    expect(view.session).toMatchObject({
      mode: 'subscription',
      client_reference_id: u.id,
      success_url: `${APP_URL}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${APP_URL}/billing/cancel`,
    });
  });

  it('sells annual billing at the annual price', async () => {
    const u = await signUpVerified(t);
    const { sessionId } = await (await checkout(t, u, { plan: 'PRO', billing: 'annual' })).json();
    expect(devOf(t).describeCheckout(sessionId)).toMatchObject({
      plan: 'PRO',
      billing: 'annual',
      amount: 5990,
    });
  });

  it('answers 400 Bad Request for a plan other than BASIC or PRO, a bad billing or a missing plan', async () => {
    const u = await signUpVerified(t);
    for (const body of [
      { plan: 'ENTERPRISE' },
      { plan: 'FREE' },
      { plan: 'basic' },
      {},
      { plan: 'PRO', billing: 'weekly' },
    ]) {
      await expectError(await checkout(t, u, body), 400, 'Bad Request');
    }
    await expect(
      caller(t, u.token).subscription.createCheckout({ plan: 'ENTERPRISE' as 'PRO' }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('upper-cases a promotion code and applies it when it is active at the provider', async () => {
    const u = await signUpVerified(t);
    const res = await checkout(t, u, { plan: 'BASIC', promotionCode: ' bienvenida20 ' });
    expect(res.status).toBe(201);
    const view = devOf(t).describeCheckout((await res.json()).sessionId)!;
    expect(view).toMatchObject({ promotionCode: 'BIENVENIDA20', amount: 239.2 });
  });

  it('answers 400 for a promotion code shorter than 3 or longer than 50, with symbols, unknown or inactive', async () => {
    const u = await signUpVerified(t);
    const cases: [string, RegExp][] = [
      ['AB', /promotionCode/],
      ['A'.repeat(51), /promotionCode/],
      ['BIEN-VENIDA', /promotionCode/],
      ['NOEXISTE', /NOEXISTE is not valid/],
      ['expirado', /EXPIRADO is not valid/],
    ];
    for (const [promotionCode, message] of cases) {
      expect(
        await expectError(await checkout(t, u, { plan: 'BASIC', promotionCode }), 400, 'Bad Request'),
      ).toMatch(message);
    }
  });

  it('creates the provider customer once per user and stores it', async () => {
    const u = await signUpVerified(t);
    const dev = devOf(t);
    const before = dev.customers.size;
    await checkout(t, u, { plan: 'BASIC' });
    await checkout(t, u, { plan: 'PRO', billing: 'annual' });
    expect(dev.customers.size).toBe(before + 1);
    expect(await countRows(t, 'billing_customers', u.id)).toBe(1);
    const customer = [...dev.customers.values()].find((c) => c.metadata?.userId === u.id);
    expect(customer).toMatchObject({ email: u.email });
  });

  it('two concurrent checkouts for one user → one provider customer', async () => {
    const u = await signUpVerified(t);
    const dev = devOf(t);
    const before = dev.customers.size;
    const answers = await Promise.all([
      checkout(t, u, { plan: 'BASIC' }),
      checkout(t, u, { plan: 'PRO' }),
      checkout(t, u, { plan: 'BASIC', billing: 'annual' }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);
    const ids = await Promise.all(answers.map(async (r) => (await r.json()).sessionId as string));
    const customers = new Set(ids.map((id) => dev.describeCheckout(id)!.session.customer));
    expect(customers.size).toBe(1);
    expect(dev.customers.size).toBe(before + 1);
    expect(await countRows(t, 'billing_customers', u.id)).toBe(1);
  });

  it('replays the same session for a retried request with the same Idempotency-Key', async () => {
    const u = await signUpVerified(t);
    const first = await (await checkout(t, u, { plan: 'BASIC' }, { 'idempotency-key': 'k-1' })).json();
    const again = await (await checkout(t, u, { plan: 'BASIC' }, { 'idempotency-key': 'k-1' })).json();
    const other = await (await checkout(t, u, { plan: 'BASIC' }, { 'idempotency-key': 'k-2' })).json();
    expect(again.sessionId).toBe(first.sessionId);
    expect(other.sessionId).not.toBe(first.sessionId);
  });

  it('answers 409 Conflict for the plan the user already has (TRIALING, ACTIVE, PAST_DUE), not for the other', async () => {
    const u = await signUpVerified(t);
    const { subscriptionId } = await subscribe(t, u, { plan: 'BASIC' });
    expect((await current(t, u)).status).toBe('TRIALING');
    await expectError(await checkout(t, u, { plan: 'BASIC' }), 409, 'Conflict');
    await expectError(await checkout(t, u, { plan: 'BASIC', billing: 'annual' }), 409, 'Conflict');
    await devOf(t).endTrial(subscriptionId);
    await expectError(await checkout(t, u, { plan: 'BASIC' }), 409, 'Conflict');
    await devOf(t).failRenewal(subscriptionId);
    expect((await current(t, u)).status).toBe('PAST_DUE');
    await expectError(await checkout(t, u, { plan: 'BASIC' }), 409, 'Conflict');
    expect((await checkout(t, u, { plan: 'PRO' })).status).toBe(201);
    await expect(caller(t, u.token).subscription.createCheckout({ plan: 'BASIC' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('offers the 14-day trial only to a user who never had one', async () => {
    const u = await signUpVerified(t);
    const { subscriptionId } = await subscribe(t, u, { plan: 'PRO' });
    await devOf(t).cancelNow(subscriptionId);
    const res = await checkout(t, u, { plan: 'PRO' });
    const body = await res.json();
    expect(body.message).not.toMatch(/trial/);
    expect(devOf(t).describeCheckout(body.sessionId)!.trialDays).toBeNull();
    await devOf(t).completeCheckout(body.sessionId);
    expect(await current(t, u)).toMatchObject({ plan: 'PRO', status: 'ACTIVE' });
  });

  it('answers 500 with a clean message when the provider fails, and nothing is stored', async () => {
    const u = await signUpVerified(t);
    devOf(t).failNextRequests(1);
    const message = await expectError(await checkout(t, u, { plan: 'BASIC' }), 500, 'Internal Server Error');
    expect(message).not.toMatch(/outage|stripe|dev/i);
    expect(await countRows(t, 'billing_customers', u.id)).toBe(0);
    expect((await checkout(t, u, { plan: 'BASIC' })).status).toBe(201);
  });

  it('replaces a stored customer the provider no longer has', async () => {
    const u = await signUpVerified(t);
    const first = await (await checkout(t, u, { plan: 'BASIC' })).json();
    const old = devOf(t).describeCheckout(first.sessionId)!.session.customer;
    devOf(t).deleteCustomer(old);
    const second = await (await checkout(t, u, { plan: 'BASIC' })).json();
    expect(devOf(t).describeCheckout(second.sessionId)!.session.customer).not.toBe(old);
  });

  it('answers 401 without a token and 403 to a cookie request from another origin', async () => {
    await expectError(
      await request(t, 'POST', '/api/subscription/create-checkout', { body: { plan: 'BASIC' } }),
      401,
      'Unauthorized',
    );
    const u = await signUpVerified(t);
    const res = await request(t, 'POST', '/api/subscription/create-checkout', {
      headers: { cookie: `access_token=${u.token}`, origin: 'https://evil.example' },
      body: { plan: 'BASIC' },
    });
    await expectError(res, 403, 'Forbidden');
  });
});

describe('POST /api/subscription/create-portal-session', () => {
  it('answers 201 with the hosted portal url and a message for a paid subscription', async () => {
    const u = await signUpVerified(t);
    await subscribe(t, u);
    const res = await portal(t, u);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['message', 'url']);
    expect(body.url).toMatch(new RegExp(`^${APP_URL}/__dev/billing/portal/bps_`));
    const viaTrpc = await caller(t, u.token).subscription.createPortalSession();
    expect(viaTrpc.url).toMatch(/\/__dev\/billing\/portal\//);
  });

  it('answers 403 Forbidden to FREE users, cancelled subscriptions and ENTERPRISE (contract)', async () => {
    const free = await signUpVerified(t);
    await expectError(await portal(t, free), 403, 'Forbidden');
    await expect(caller(t, free.token).subscription.createPortalSession()).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const ended = await signUpVerified(t);
    const { subscriptionId } = await subscribe(t, ended);
    await devOf(t).cancelNow(subscriptionId);
    await expectError(await portal(t, ended), 403, 'Forbidden');
    const enterprise = await signUpVerified(t);
    await setPlan(t, enterprise.id, 'ENTERPRISE');
    await expectError(await portal(t, enterprise), 403, 'Forbidden');
  });

  it('lets an UNPAID user in, to pay', async () => {
    const u = await signUpVerified(t);
    const { subscriptionId } = await subscribe(t, u);
    await devOf(t).failRenewal(subscriptionId);
    await devOf(t).exhaustRetries(subscriptionId);
    expect((await current(t, u)).status).toBe('UNPAID');
    expect((await portal(t, u)).status).toBe(201);
  });

  it('answers 404 Not Found when no provider customer is stored or the provider no longer has it', async () => {
    const stored = await signUpVerified(t);
    await setPlan(t, stored.id, 'BASIC');
    await expectError(await portal(t, stored), 404, 'Not Found');
    const gone = await signUpVerified(t);
    await subscribe(t, gone);
    devOf(t).deleteCustomer((await subscriptionRow(t, gone.id))!.stripeCustomerId!);
    await expectError(await portal(t, gone), 404, 'Not Found');
  });

  it('answers 401 without a token and 500 when the provider fails', async () => {
    await expectError(
      await request(t, 'POST', '/api/subscription/create-portal-session'),
      401,
      'Unauthorized',
    );
    const u = await signUpVerified(t);
    await subscribe(t, u);
    devOf(t).failNextRequests(1);
    await expectError(await portal(t, u), 500, 'Internal Server Error');
  });

  it('writes audit rows for checkout and portal sessions', async () => {
    const u = await signUpVerified(t);
    await subscribe(t, u);
    await portal(t, u);
    expect(await auditActions(t, u.id, 'subscription.checkout')).toHaveLength(1);
    expect(await auditActions(t, u.id, 'subscription.portal')).toHaveLength(1);
  });
});

describe('entitlements follow the subscription at once', () => {
  it('gives an upgraded user BASIC limits: 3 profiles (the 4th is 403) and 100 SAT searches', async () => {
    const u = await signUpVerified(t);
    await subscribe(t, u, { plan: 'BASIC' });
    expect((await current(t, u)).limits).toEqual(PLAN_LIMITS.BASIC);
    for (let i = 0; i < 3; i++) {
      const res = await request(t, 'POST', '/api/profiles', {
        headers: bearer(u.token),
        body: { nombre: `P${i}`, rfc: rfcMoral(i), tipo_persona: 'MORAL' },
      });
      expect(res.status).toBe(201);
    }
    const fourth = await request(t, 'POST', '/api/profiles', {
      headers: bearer(u.token),
      body: { nombre: 'P3', rfc: rfcMoral(3), tipo_persona: 'MORAL' },
    });
    await expectError(fourth, 403, 'Forbidden');
    const search = await request(t, 'GET', '/api/sat/search?query=agua', { headers: bearer(u.token) });
    expect(search.headers.get('x-quota-limit')).toBe('100');
  });
});

describe('configuration', () => {
  it('refuses STRIPE_SECRET_KEY without STRIPE_WEBHOOK_SECRET and the other way round', () => {
    expect(() => loadEnv({ STRIPE_SECRET_KEY: 'sk_test_123' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => loadEnv({ STRIPE_WEBHOOK_SECRET: 'whsec_123' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => loadEnv({ STRIPE_SECRET_KEY: 'pk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toThrow();
    expect(loadEnv({ STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_123' })).toMatchObject({
      STRIPE_SECRET_KEY: 'sk_test_123',
      PLAN_PRICE_BASIC: 299,
    });
  });

  it('mounts no /__dev/billing pages when real Stripe is configured', async () => {
    const real = await startTestApp({
      billing: createBillingProvider({ appUrl: APP_URL, secretKey: 'sk_test_1', webhookSecret: 'whsec_1' }),
    });
    try {
      expect((await real.app.request('/__dev/billing/checkout/cs_1')).status).toBe(404);
      // The webhook verifies with the configured secret: the offline one is refused.
      const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'x', data: { object: {} } });
      const res = await real.app.request('/api/webhooks/stripe', {
        method: 'POST',
        headers: { 'stripe-signature': devOf(t).sign(payload) },
        body: payload,
      });
      await expectError(res, 400, 'Bad Request');
    } finally {
      await real.close();
    }
  });

  it('lists configured prices', async () => {
    const priced = await startTestApp({
      billing: createBillingProvider({
        appUrl: APP_URL,
        offline: FakeStripe,
        monthlyPrices: { FREE: 0, BASIC: 349, PRO: 699, ENTERPRISE: 2499 },
      }),
    });
    try {
      const u = await signUpVerified(priced);
      const res = await request(priced, 'GET', '/api/subscription/plans', { headers: bearer(u.token) });
      expect((await res.json()).plans.map((p: { price: number }) => p.price)).toEqual([0, 349, 699, 2499]);
    } finally {
      await priced.close();
    }
  });
});
