import { randomBytes } from 'node:crypto';
import {
  type Billing,
  CHECKOUT_PLANS,
  type CheckoutPlan,
  DEFAULT_MONTHLY_PRICES,
  type MonthlyPrices,
  priceFor,
} from '@folio/billing';
import Stripe from 'stripe';
import { type FormObject, type FormValue, parseForm } from './form';

type Obj = Record<string, any>;

export interface FakeStripeOptions {
  /** Origin of the app: hosted pages live at `${appUrl}/__dev/billing/*`. */
  appUrl: string;
  /** Secret the fake signs its webhook events with (the app verifies with the same one). */
  webhookSecret: string;
  monthlyPrices?: MonthlyPrices;
}

/** One webhook delivery the fake made, for tests and the dev pages. */
export interface Delivery {
  event: Stripe.Event;
  status: number;
}

type Deliver = (request: Request) => Promise<Response>;

/** Seeded promotion codes: one that works, one that expired. */
const SEED_PROMOTION_CODES = [
  { code: 'BIENVENIDA20', active: true, percentOff: 20 },
  { code: 'EXPIRADO', active: false, percentOff: 50 },
];

const DAY = 86_400;
const PRICE_KEY = /^(basic|pro)_(monthly|annual)$/;

const id = (prefix: string) => `${prefix}_dev${randomBytes(9).toString('hex')}`;
const str = (v: FormValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: FormValue | undefined): FormObject =>
  v && typeof v === 'object' && !Array.isArray(v) ? v : {};
const list = (v: FormValue | undefined): FormValue[] =>
  Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : [];

function addInterval(at: number, interval: 'month' | 'year'): number {
  const d = new Date(at * 1000);
  if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return Math.floor(d.getTime() / 1000);
}

class FakeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

/** Form parameters in a canonical order: the same parameters compare equal however they were sent. */
const canonicalParams = (text: string) =>
  [...new URLSearchParams(text)]
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .sort()
    .join('&');

const missing = (what: string, value: string, param?: string, status = 404) =>
  new FakeError(status, 'invalid_request_error', `No such ${what}: '${value}'`, 'resource_missing', param);

/**
 * An in-memory stand-in for the few Stripe endpoints Folio calls, spoken to by the real `stripe` SDK
 * through an in-process fetch (no socket). Anything else answers 404 "unsupported", so a new call
 * shows up as a gap instead of silently passing. Its clock only moves forward, when an action needs
 * it to (trial end, renewal); events are signed with the real time so the app's tolerance check holds.
 */
export class FakeStripe {
  readonly appUrl: string;
  readonly webhookSecret: string;
  readonly customers = new Map<string, Obj>();
  readonly promotionCodes: Obj[] = [];
  readonly prices: Obj[] = [];
  readonly checkoutSessions = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  readonly portalSessions = new Map<string, Obj>();
  readonly deliveries: Delivery[] = [];
  /** Every API request the fake answered: `METHOD /v1/path`. */
  readonly requests: string[] = [];
  private readonly sessionPlans = new Map<string, { price: Obj; trialDays: number | null; promo?: Obj }>();
  private readonly idempotent = new Map<string, { status: number; body: string; params: string }>();
  private readonly pending = new Set<Promise<unknown>>();
  private offset = 0;
  private failures = 0;
  private target?: { deliver: Deliver; url: string };

  constructor(opts: FakeStripeOptions) {
    this.appUrl = opts.appUrl.replace(/\/$/, '');
    this.webhookSecret = opts.webhookSecret;
    const monthly = opts.monthlyPrices ?? DEFAULT_MONTHLY_PRICES;
    for (const plan of CHECKOUT_PLANS) {
      for (const billing of ['monthly', 'annual'] as const) {
        const key = `${plan.toLowerCase()}_${billing}`;
        this.prices.push({
          id: `price_dev_${key}`,
          object: 'price',
          active: true,
          currency: 'mxn',
          lookup_key: key,
          nickname: `${plan} ${billing}`,
          product: `prod_dev_${plan.toLowerCase()}`,
          recurring: { interval: billing === 'monthly' ? 'month' : 'year', interval_count: 1 },
          type: 'recurring',
          unit_amount: Math.round(priceFor(plan, billing, monthly) * 100),
        });
      }
    }
    for (const seed of SEED_PROMOTION_CODES) {
      this.promotionCodes.push({
        id: id('promo'),
        object: 'promotion_code',
        active: seed.active,
        code: seed.code,
        promotion: {
          type: 'coupon',
          coupon: { id: id('coupon'), object: 'coupon', percent_off: seed.percentOff, duration: 'once' },
        },
      });
    }
  }

  // ---- clock and plumbing -----------------------------------------------------------------------

  /** The fake's clock (unix seconds): real time, moved forward by actions such as a trial ending. */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.offset;
  }

  private advanceTo(at: number): void {
    this.offset = Math.max(this.offset, at - Math.floor(Date.now() / 1000));
  }

  /** Where signed events go: the app's own webhook route, called in-process. */
  connect(deliver: Deliver, webhookUrl: string): void {
    this.target = { deliver, url: webhookUrl };
  }

  /** The next `count` API requests fail with a 500 `api_error` (provider outage). */
  failNextRequests(count = 1): void {
    this.failures = count;
  }

  /** Waits for events the fake sends on its own (after API calls), as Stripe would later. */
  async settle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** The `fetch` the SDK's http client calls. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const text = method === 'GET' || method === 'DELETE' ? url.search.slice(1) : await request.text();
    this.requests.push(`${method} ${url.pathname}`);
    const key = request.headers.get('idempotency-key');
    const params = canonicalParams(text);
    const remembered = key ? this.idempotent.get(`${method} ${url.pathname} ${key}`) : undefined;
    if (remembered && remembered.params !== params) {
      // As Stripe: a key is bound to the parameters it was first used with.
      const error = new FakeError(
        400,
        'idempotency_error',
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      );
      return this.respond(
        400,
        JSON.stringify({ error: { type: error.type, message: error.message } }),
        false,
      );
    }
    if (remembered) return this.respond(remembered.status, remembered.body, true);
    let status = 200;
    let body: string;
    try {
      if (!request.headers.get('authorization')?.startsWith('Bearer ')) {
        throw new FakeError(401, 'invalid_request_error', 'You did not provide an API key.');
      }
      if (this.failures > 0) {
        this.failures--;
        throw new FakeError(500, 'api_error', 'The dev billing provider is simulating an outage.');
      }
      body = JSON.stringify(this.route(method, url.pathname, parseForm(text)));
    } catch (err) {
      if (!(err instanceof FakeError)) throw err;
      status = err.status;
      body = JSON.stringify({
        error: { type: err.type, message: err.message, code: err.code, param: err.param },
      });
    }
    if (key && method === 'POST' && status < 500) {
      this.idempotent.set(`${method} ${url.pathname} ${key}`, { status, body, params });
    }
    return this.respond(status, body, false);
  };

  private respond(status: number, body: string, replayed: boolean): Response {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': id('req') };
    if (replayed) headers['idempotent-replayed'] = 'true';
    return new Response(body, { status, headers });
  }

  private route(method: string, path: string, params: FormObject): unknown {
    const [, v1, resource, rid, sub] = path.split('/');
    if (v1 === 'v1') {
      if (resource === 'customers' && !rid && method === 'POST') return this.createCustomer(params);
      if (resource === 'customers' && rid && !sub && method === 'GET') return this.retrieveCustomer(rid);
      if (resource === 'promotion_codes' && !rid && method === 'GET') return this.listPromotionCodes(params);
      if (resource === 'prices' && !rid && method === 'GET') return this.listPrices(params);
      if (resource === 'checkout' && rid === 'sessions') {
        const csId = path.split('/')[4];
        if (!csId && method === 'POST') return this.createCheckoutSession(params);
        if (csId && method === 'GET') return this.checkoutSession(csId);
      }
      if (resource === 'subscriptions' && rid && !sub) {
        if (method === 'GET') return this.subscription(rid);
        if (method === 'DELETE') return this.cancelFromApi(rid);
      }
      if (resource === 'billing_portal' && rid === 'sessions' && !sub && method === 'POST') {
        return this.createPortalSession(params);
      }
    }
    throw new FakeError(
      404,
      'invalid_request_error',
      `The dev billing provider does not support ${method} ${path}`,
      'unsupported',
    );
  }

  // ---- API endpoints ----------------------------------------------------------------------------

  private createCustomer(params: FormObject): Obj {
    const customer = {
      id: id('cus'),
      object: 'customer',
      created: this.now(),
      email: str(params.email) ?? null,
      name: str(params.name) ?? null,
      metadata: obj(params.metadata),
      livemode: false,
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  private retrieveCustomer(customerId: string): Obj {
    const customer = this.customers.get(customerId);
    if (!customer) throw missing('customer', customerId, 'id');
    return customer;
  }

  private listPromotionCodes(params: FormObject): Obj {
    const code = str(params.code)?.toUpperCase();
    const active = str(params.active);
    const limit = Number(str(params.limit) ?? 10);
    const data = this.promotionCodes
      .filter(
        (p) =>
          (code === undefined || p.code === code) && (active === undefined || String(p.active) === active),
      )
      .slice(0, limit);
    return { object: 'list', url: '/v1/promotion_codes', has_more: false, data };
  }

  private listPrices(params: FormObject): Obj {
    const keys = list(params.lookup_keys).map(String);
    const data = this.prices.filter((p) => keys.length === 0 || keys.includes(p.lookup_key));
    return { object: 'list', url: '/v1/prices', has_more: false, data };
  }

  private createCheckoutSession(params: FormObject): Obj {
    if (str(params.mode) !== 'subscription') {
      throw new FakeError(
        400,
        'invalid_request_error',
        'Only mode=subscription is supported',
        undefined,
        'mode',
      );
    }
    const customerId = str(params.customer);
    if (!customerId || !this.customers.has(customerId) || this.customers.get(customerId)?.deleted) {
      throw missing('customer', customerId ?? '', 'customer', 400);
    }
    const successUrl = str(params.success_url);
    if (!successUrl)
      throw new FakeError(400, 'invalid_request_error', 'Missing success_url', undefined, 'success_url');
    const item = obj(list(params.line_items)[0]);
    const price = this.prices.find((p) => p.id === str(item.price));
    if (!price) throw missing('price', str(item.price) ?? '', 'line_items[0][price]', 400);
    const promoId = str(obj(list(params.discounts)[0]).promotion_code);
    const promo = promoId ? this.promotionCodes.find((p) => p.id === promoId) : undefined;
    if (promoId && !promo) throw missing('promotion code', promoId, 'discounts[0][promotion_code]', 400);
    if (promo && !promo.active) {
      throw new FakeError(
        400,
        'invalid_request_error',
        `Promotion code ${promo.code} is inactive`,
        'promotion_code_invalid',
      );
    }
    const subscriptionData = obj(params.subscription_data);
    const trial = str(subscriptionData.trial_period_days);
    const created = this.now();
    const session = {
      id: id('cs'),
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      created,
      expires_at: Number(str(params.expires_at) ?? created + DAY),
      customer: customerId,
      client_reference_id: str(params.client_reference_id) ?? null,
      metadata: obj(params.metadata),
      subscription: null as string | null,
      success_url: successUrl,
      cancel_url: str(params.cancel_url) ?? null,
      locale: str(params.locale) ?? null,
      currency: price.currency,
      amount_total: Math.round(
        price.unit_amount * (promo ? 1 - promo.promotion.coupon.percent_off / 100 : 1),
      ),
      discounts: promo ? [{ promotion_code: promo.id }] : [],
      livemode: false,
      url: '',
    };
    session.url = `${this.appUrl}/__dev/billing/checkout/${session.id}`;
    this.checkoutSessions.set(session.id, session);
    this.sessionPlans.set(session.id, {
      price,
      trialDays: trial ? Number(trial) : null,
      promo,
    });
    // subscription_data.metadata travels to the subscription the session creates.
    (session as Obj)._subscriptionMetadata = obj(subscriptionData.metadata);
    return this.publicView(session);
  }

  private checkoutSession(csId: string): Obj {
    const session = this.checkoutSessions.get(csId);
    if (!session) throw missing('checkout.session', csId, 'session');
    this.expireIfDue(session);
    return this.publicView(session);
  }

  private subscription(subId: string): Obj {
    const sub = this.subscriptions.get(subId);
    if (!sub) throw missing('subscription', subId, 'id');
    return sub;
  }

  private cancelFromApi(subId: string): Obj {
    const sub = this.subscription(subId);
    if (sub.status !== 'canceled') {
      this.markCanceled(sub);
      this.later([this.event('customer.subscription.deleted', sub)]);
    }
    return sub;
  }

  private createPortalSession(params: FormObject): Obj {
    const customerId = str(params.customer) ?? '';
    const customer = this.customers.get(customerId);
    if (!customer || customer.deleted) throw missing('customer', customerId, 'customer', 400);
    const session = {
      id: id('bps'),
      object: 'billing_portal.session',
      created: this.now(),
      customer: customerId,
      return_url: str(params.return_url) ?? null,
      livemode: false,
      url: '',
    };
    session.url = `${this.appUrl}/__dev/billing/portal/${session.id}`;
    this.portalSessions.set(session.id, session);
    return session;
  }

  private publicView(session: Obj): Obj {
    return Object.fromEntries(Object.entries(session).filter(([k]) => !k.startsWith('_')));
  }

  private expireIfDue(session: Obj): void {
    if (session.status === 'open' && this.now() >= session.expires_at) session.status = 'expired';
  }

  // ---- what the hosted pages (and tests) do ----------------------------------------------------

  /** The checkout page's view of a session: plan, billing, trial and discount. */
  describeCheckout(csId: string):
    | {
        session: Obj;
        plan: CheckoutPlan;
        billing: Billing;
        amount: number;
        trialDays: number | null;
        promotionCode: string | null;
      }
    | undefined {
    const session = this.checkoutSessions.get(csId);
    const extra = this.sessionPlans.get(csId);
    if (!session || !extra) return undefined;
    this.expireIfDue(session);
    const [, plan, billing] = PRICE_KEY.exec(extra.price.lookup_key) ?? [];
    return {
      session: this.publicView(session),
      plan: String(plan).toUpperCase() as CheckoutPlan,
      billing: billing as Billing,
      amount: session.amount_total / 100,
      trialDays: extra.trialDays,
      promotionCode: extra.promo?.code ?? null,
    };
  }

  /** Pay: the session completes and creates the subscription (trialing when it carried a trial). */
  async completeCheckout(csId: string): Promise<{ session: Obj; subscription: Obj }> {
    const session = this.checkoutSessions.get(csId);
    const extra = this.sessionPlans.get(csId);
    if (!session || !extra) throw new Error(`no checkout session ${csId}`);
    this.expireIfDue(session);
    if (session.status !== 'open') throw new Error(`checkout session ${csId} is ${session.status}`);
    const now = this.now();
    const interval = extra.price.recurring.interval as 'month' | 'year';
    const trialEnd = extra.trialDays ? now + extra.trialDays * DAY : null;
    const sub: Obj = {
      id: id('sub'),
      object: 'subscription',
      customer: session.customer,
      status: trialEnd ? 'trialing' : 'active',
      created: now,
      start_date: now,
      billing_cycle_anchor: trialEnd ?? now,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      trial_start: trialEnd ? now : null,
      trial_end: trialEnd,
      currency: extra.price.currency,
      metadata: { ...session._subscriptionMetadata },
      discounts: extra.promo ? [id('di')] : [],
      latest_invoice: null,
      livemode: false,
      items: {
        object: 'list',
        has_more: false,
        url: '/v1/subscription_items',
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            created: now,
            price: extra.price,
            quantity: 1,
            current_period_start: now,
            current_period_end: trialEnd ?? addInterval(now, interval),
          },
        ],
      },
    };
    sub.items.data[0].subscription = sub.id;
    this.subscriptions.set(sub.id, sub);
    session.status = 'complete';
    session.payment_status = trialEnd ? 'no_payment_required' : 'paid';
    session.subscription = sub.id;
    // Deliberately not in the "natural" order: the app must not depend on it.
    const events = [this.event('customer.subscription.created', sub)];
    events.push(this.event('checkout.session.completed', this.publicView(session)));
    if (!trialEnd) events.push(this.event('invoice.paid', this.invoice(sub, 'paid', 'subscription_create')));
    await this.deliver(events);
    return { session: this.publicView(session), subscription: sub };
  }

  /** Decline: the customer gives up; the session expires and the page returns to the cancel URL. */
  async declineCheckout(csId: string): Promise<Obj> {
    const session = this.checkoutSessions.get(csId);
    if (!session) throw new Error(`no checkout session ${csId}`);
    if (session.status !== 'open') throw new Error(`checkout session ${csId} is ${session.status}`);
    session.status = 'expired';
    await this.deliver([this.event('checkout.session.expired', this.publicView(session))]);
    return this.publicView(session);
  }

  /** The clock reaches the end of the trial and the first invoice is paid: ACTIVE. */
  endTrial(subId: string): Promise<Obj> {
    const sub = this.live(subId);
    if (sub.status !== 'trialing') throw new Error(`subscription ${subId} is not trialing`);
    return this.renew(subId);
  }

  /**
   * The clock reaches the end of the period. A subscription set to cancel then ends (CANCELLED);
   * otherwise the next period starts and its invoice is paid (ACTIVE).
   */
  async renew(subId: string): Promise<Obj> {
    const sub = this.live(subId);
    const end = this.periodEnd(sub);
    this.advanceTo(end);
    if (sub.cancel_at !== null && sub.cancel_at <= end) {
      this.markCanceled(sub);
      await this.deliver([this.event('customer.subscription.deleted', sub)]);
      return sub;
    }
    this.nextPeriod(sub);
    sub.status = 'active';
    await this.deliver([
      this.event('invoice.paid', this.invoice(sub, 'paid', 'subscription_cycle')),
      this.event('customer.subscription.updated', sub),
    ]);
    return sub;
  }

  /** The renewal charge fails: the period moves on unpaid and the provider retries (PAST_DUE). */
  async failRenewal(subId: string): Promise<Obj> {
    const sub = this.live(subId);
    this.advanceTo(this.periodEnd(sub));
    this.nextPeriod(sub);
    sub.status = 'past_due';
    await this.deliver([
      this.event('invoice.payment_failed', this.invoice(sub, 'open', 'subscription_cycle')),
      this.event('customer.subscription.updated', sub),
    ]);
    return sub;
  }

  /** Every retry failed and dunning marks the subscription unpaid (UNPAID). */
  async exhaustRetries(subId: string): Promise<Obj> {
    const sub = this.live(subId);
    if (sub.status !== 'past_due') throw new Error(`subscription ${subId} is not past_due`);
    this.advanceTo(this.now() + 14 * DAY);
    sub.status = 'unpaid';
    await this.deliver([
      this.event('invoice.payment_failed', this.invoice(sub, 'open', 'subscription_cycle')),
      this.event('customer.subscription.updated', sub),
    ]);
    return sub;
  }

  /** The customer pays the open invoice (portal, new card): ACTIVE again. */
  async payAgain(subId: string): Promise<Obj> {
    const sub = this.live(subId);
    if (sub.status !== 'past_due' && sub.status !== 'unpaid')
      throw new Error(`subscription ${subId} owes nothing`);
    sub.status = 'active';
    await this.deliver([
      this.event('invoice.paid', this.invoice(sub, 'paid', 'subscription_cycle')),
      this.event('customer.subscription.updated', sub),
    ]);
    return sub;
  }

  /** Cancel at period end, as the portal does it: `cancel_at` set, `cancel_at_period_end` left false. */
  async cancelAtPeriodEnd(subId: string): Promise<Obj> {
    const sub = this.live(subId);
    sub.cancel_at = this.periodEnd(sub);
    sub.canceled_at = this.now();
    await this.deliver([this.event('customer.subscription.updated', sub)]);
    return sub;
  }

  /** Undo a scheduled cancellation. */
  async keepSubscription(subId: string): Promise<Obj> {
    const sub = this.live(subId);
    sub.cancel_at = null;
    sub.cancel_at_period_end = false;
    sub.canceled_at = null;
    await this.deliver([this.event('customer.subscription.updated', sub)]);
    return sub;
  }

  /** Cancel immediately (CANCELLED). */
  async cancelNow(subId: string): Promise<Obj> {
    const sub = this.live(subId);
    this.markCanceled(sub);
    await this.deliver([this.event('customer.subscription.deleted', sub)]);
    return sub;
  }

  /** Switch to another plan or billing period from the portal (prorations are not modelled). */
  async switchPlan(subId: string, plan: CheckoutPlan, billing: Billing): Promise<Obj> {
    const sub = this.live(subId);
    const price = this.prices.find((p) => p.lookup_key === `${plan.toLowerCase()}_${billing}`);
    if (!price) throw new Error(`no price for ${plan} ${billing}`);
    const item = sub.items.data[0];
    const intervalChanged = price.recurring.interval !== item.price.recurring.interval;
    item.price = price;
    if (sub.status !== 'trialing' && intervalChanged) {
      item.current_period_start = this.now();
      item.current_period_end = addInterval(this.now(), price.recurring.interval);
    }
    sub.metadata = { ...sub.metadata, plan, billing };
    await this.deliver([this.event('customer.subscription.updated', sub)]);
    return sub;
  }

  /** The customer disappears at the provider (deleted in the dashboard, or another account). */
  deleteCustomer(customerId: string): void {
    const customer = this.customers.get(customerId);
    if (customer) this.customers.set(customerId, { id: customerId, object: 'customer', deleted: true });
  }

  /** The customer's subscriptions, newest first. */
  subscriptionsOf(customerId: string): Obj[] {
    return [...this.subscriptions.values()]
      .filter((s) => s.customer === customerId)
      .sort((a, b) => b.created - a.created);
  }

  // ---- internals --------------------------------------------------------------------------------

  private live(subId: string): Obj {
    const sub = this.subscriptions.get(subId);
    if (!sub) throw new Error(`no subscription ${subId}`);
    if (sub.status === 'canceled') throw new Error(`subscription ${subId} is canceled`);
    return sub;
  }

  private periodEnd(sub: Obj): number {
    return sub.items.data[0].current_period_end;
  }

  private nextPeriod(sub: Obj): void {
    const item = sub.items.data[0];
    const start = item.current_period_end;
    item.current_period_start = start;
    item.current_period_end = addInterval(start, item.price.recurring.interval);
  }

  private markCanceled(sub: Obj): void {
    const now = this.now();
    sub.status = 'canceled';
    sub.canceled_at ??= now;
    sub.ended_at = now;
  }

  private invoice(sub: Obj, status: 'paid' | 'open', reason: string): Obj {
    const item = sub.items.data[0];
    const invoice = {
      id: id('in'),
      object: 'invoice',
      customer: sub.customer,
      status,
      billing_reason: reason,
      currency: sub.currency,
      amount_due: item.price.unit_amount,
      amount_paid: status === 'paid' ? item.price.unit_amount : 0,
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: sub.id, metadata: sub.metadata },
      },
      created: this.now(),
      livemode: false,
    };
    sub.latest_invoice = invoice.id;
    return invoice;
  }

  private event(type: string, object: Obj): Stripe.Event {
    return {
      id: id('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: this.now(),
      type,
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    } as unknown as Stripe.Event;
  }

  /** Signs an event as Stripe does (`t=…,v1=…`): the real current time and our secret unless told otherwise. */
  sign(payload: string, opts: { timestamp?: number; secret?: string } = {}): string {
    return Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: opts.secret ?? this.webhookSecret,
      timestamp: opts.timestamp,
    });
  }

  /** Sends events to the app's webhook one after another, recording each answer. */
  private async deliver(events: Stripe.Event[]): Promise<void> {
    for (const event of events) {
      const payload = JSON.stringify(event);
      let status = 0;
      if (this.target) {
        const res = await this.target.deliver(
          new Request(this.target.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'stripe-signature': this.sign(payload) },
            body: payload,
          }),
        );
        status = res.status;
        await res.arrayBuffer();
      }
      this.deliveries.push({ event, status });
    }
  }

  /** Events caused by an API call arrive after the call has answered, as with Stripe. */
  private later(events: Stripe.Event[]): void {
    const p: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.deliver(events))
      .catch(() => {
        for (const event of events) this.deliveries.push({ event, status: 0 });
      })
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }
}
