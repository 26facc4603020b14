import {
  findBillingCustomerId,
  replaceBillingCustomer,
  saveBillingCustomer,
} from '@folio/db/queries/billing-customers';
import { findSubscription } from '@folio/db/queries/subscriptions';
import Stripe from 'stripe';
import type { Billing, CheckoutPlan } from './plans';
import { TRIAL_DAYS } from './plans';
import { displayedPlan, SUBSCRIBED_STATUSES } from './status';
import { type BillingDeps, isMissingAtProvider, syncSubscription } from './sync';
import { type SubscriptionView, subscriptionView } from './view';

export type BillingErrorKind =
  | 'invalid_promotion_code'
  | 'already_subscribed'
  | 'no_paid_subscription'
  | 'customer_missing'
  | 'idempotency_key_reused'
  | 'provider';

/** A refusal or failure of a billing operation; the API turns the kind into its status code. */
export class BillingError extends Error {
  constructor(
    readonly kind: BillingErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BillingError';
  }
}

const isStripeError = (err: unknown) => err instanceof Stripe.errors.StripeError;

/**
 * Runs a provider call; any provider failure becomes a `provider` BillingError (the API's 500), except
 * a client's Idempotency-Key reused with other parameters, which is the client's mistake (409).
 */
async function provider<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof BillingError || !isStripeError(err)) throw err;
    if (err instanceof Stripe.errors.StripeIdempotencyError) {
      throw new BillingError(
        'idempotency_key_reused',
        'Idempotency-Key was already used with a different request body',
        { cause: err },
      );
    }
    throw new BillingError('provider', `The payment provider failed to ${what}`, { cause: err });
  }
}

/**
 * Whether the provider answered from its idempotency cache. `lastResponse` is typed as a header map,
 * but with the fetch HTTP client (ours, in every mode) its headers are a `Headers`.
 */
function replayedByProvider(answer: { lastResponse?: { headers?: unknown } }): boolean {
  const headers = answer.lastResponse?.headers;
  const value =
    headers instanceof Headers
      ? headers.get('idempotent-replayed')
      : (headers as Record<string, string> | undefined)?.['idempotent-replayed'];
  return value === 'true';
}

export interface BillingUser {
  id: string;
  email: string;
  name?: string | null;
}

/**
 * The user's provider customer, created once: the idempotency key is derived from the user id, so two
 * concurrent first checkouts get the same customer back from the provider, and the first one stored wins.
 */
export async function ensureCustomer(deps: BillingDeps, user: BillingUser, fresh = false): Promise<string> {
  if (!fresh) {
    const stored = await findBillingCustomerId(deps.db, user.id);
    if (stored) return stored;
  }
  const customer = await provider('create the customer', () =>
    deps.billing.stripe.customers.create(
      { email: user.email, name: user.name ?? undefined, metadata: { userId: user.id } },
      { idempotencyKey: fresh ? `folio-customer-${user.id}-${Date.now()}` : `folio-customer-${user.id}` },
    ),
  );
  if (fresh) {
    await replaceBillingCustomer(deps.db, user.id, customer.id);
    return customer.id;
  }
  return saveBillingCustomer(deps.db, user.id, customer.id);
}

export interface CheckoutInput {
  plan: CheckoutPlan;
  billing: Billing;
  /** Already upper-cased. */
  promotionCode?: string;
  /** The client's Idempotency-Key: a retried request gets the same session back. */
  idempotencyKey?: string | null;
}

export interface CheckoutSession {
  sessionId: string;
  url: string;
  trialDays: number | null;
  promotionCode: string | null;
  /** The provider answered a retried Idempotency-Key with the session it made the first time. */
  replayed: boolean;
}

/**
 * A hosted checkout session for BASIC or PRO (docs/contract.md#routes): 409 when the user is already on that plan
 * (ACTIVE, TRIALING or PAST_DUE); the 14-day trial only for a user who never had one; a promotion
 * code must be an active one at the provider. The session lives 24 hours (the provider's default).
 */
export async function createCheckoutSession(
  deps: BillingDeps,
  user: BillingUser,
  input: CheckoutInput,
): Promise<CheckoutSession> {
  const { billing, db } = deps;
  const current = await findSubscription(db, user.id);
  if (current && current.plan === input.plan && SUBSCRIBED_STATUSES.has(current.status)) {
    throw new BillingError(
      'already_subscribed',
      `You are already subscribed to ${input.plan} (${current.status}); manage it in the customer portal`,
    );
  }
  let promotion: Stripe.PromotionCode | undefined;
  if (input.promotionCode) {
    const code = input.promotionCode;
    const found = await provider('look up the promotion code', () =>
      billing.stripe.promotionCodes.list({ code, active: true, limit: 1 }),
    );
    promotion = found.data.find((p) => p.code.toUpperCase() === code);
    if (!promotion) throw new BillingError('invalid_promotion_code', `Promotion code ${code} is not valid`);
  }
  const price = await provider('find the plan price', () => billing.priceId(input.plan, input.billing));
  const trialDays = current?.trialUsedAt ? null : TRIAL_DAYS;
  const metadata = { userId: user.id, plan: input.plan, billing: input.billing };
  const create = (customer: string) =>
    billing.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer,
        client_reference_id: user.id,
        line_items: [{ price, quantity: 1 }],
        subscription_data: { trial_period_days: trialDays ?? undefined, metadata },
        discounts: promotion ? [{ promotion_code: promotion.id }] : undefined,
        metadata,
        success_url: `${billing.appUrl}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${billing.appUrl}/billing/cancel`,
        locale: 'es',
      },
      input.idempotencyKey
        ? { idempotencyKey: `folio-checkout-${user.id}-${input.idempotencyKey}` }
        : undefined,
    );
  let customer = await ensureCustomer(deps, user);
  const session = await provider('create the checkout session', async () => {
    try {
      return await create(customer);
    } catch (err) {
      // The stored customer is gone at the provider (deleted, or another account): make a new one.
      if (!isMissingAtProvider(err) || (err as { param?: string }).param !== 'customer') throw err;
      deps.log.warn(
        { userId: user.id, customer },
        'billing: stored customer missing at the provider; replacing it',
      );
      customer = await ensureCustomer(deps, user, true);
      return create(customer);
    }
  });
  if (!session.url) throw new BillingError('provider', 'The payment provider returned no checkout URL');
  return {
    sessionId: session.id,
    url: session.url,
    trialDays,
    promotionCode: promotion?.code ?? null,
    replayed: replayedByProvider(session),
  };
}

/**
 * A hosted customer-portal session (docs/contract.md#routes), only for a BASIC or PRO subscription that still
 * exists (ACTIVE, TRIALING, PAST_DUE or UNPAID: an unpaid user must be able to pay): 403 otherwise;
 * 404 when the provider customer is not stored or no longer exists at the provider.
 */
export async function createPortalSession(deps: BillingDeps, userId: string): Promise<{ url: string }> {
  const { billing, db } = deps;
  const sub = await findSubscription(db, userId);
  const plan = sub ? displayedPlan(sub.plan, sub.status) : 'FREE';
  if (!sub || (plan !== 'BASIC' && plan !== 'PRO')) {
    throw new BillingError(
      'no_paid_subscription',
      plan === 'ENTERPRISE'
        ? 'ENTERPRISE is billed by contract; contact us to change it'
        : 'The customer portal is for paid subscriptions (BASIC or PRO)',
    );
  }
  const customerId = sub.stripeCustomerId ?? (await findBillingCustomerId(db, userId));
  if (!customerId)
    throw new BillingError('customer_missing', 'No payment-provider customer is stored for you');
  const customer = await provider('find the customer', async () => {
    try {
      return await billing.stripe.customers.retrieve(customerId);
    } catch (err) {
      if (isMissingAtProvider(err)) return undefined;
      throw err;
    }
  });
  if (!customer || customer.deleted) {
    throw new BillingError('customer_missing', 'Your payment-provider customer was not found');
  }
  const portal = await provider('create the portal session', () =>
    billing.stripe.billingPortal.sessions.create({
      customer: customerId,
      return_url: `${billing.appUrl}/billing/return`,
    }),
  );
  return { url: portal.url };
}

export interface CheckoutReturn {
  /** The session's state at the provider; `unknown` when there is no such session. */
  state: 'complete' | 'open' | 'expired' | 'unknown';
  subscription?: SubscriptionView;
}

/**
 * The user is back from checkout, maybe before the webhook: re-read the session and its subscription
 * from the provider and apply it now, so the new plan shows at once (the webhook later finds nothing to change).
 */
export async function reconcileCheckoutReturn(deps: BillingDeps, sessionId: string): Promise<CheckoutReturn> {
  let session: Stripe.Checkout.Session;
  try {
    session = await deps.billing.stripe.checkout.sessions.retrieve(sessionId);
  } catch (err) {
    if (isMissingAtProvider(err)) return { state: 'unknown' };
    throw err;
  }
  const subscriptionId =
    typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null);
  if (session.mode !== 'subscription' || session.status !== 'complete' || !subscriptionId) {
    const state =
      session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open';
    return { state };
  }
  const customerId = typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null);
  const { userId } = await syncSubscription(deps, {
    subscriptionId,
    customerId,
    source: { kind: 'checkout-return', sessionId },
  });
  if (!userId) return { state: 'complete' };
  return {
    state: 'complete',
    subscription: subscriptionView(await findSubscription(deps.db, userId), deps.billing.monthlyPrices),
  };
}
