import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { displayedPlan, statusFromProvider } from './status';
import { readProviderSubscription } from './sync';
import { subscriptionView } from './view';
import { subscriptionIdOf } from './webhook';

const prices = {
  planOfPrice: async (price: Stripe.Price | string) =>
    (typeof price === 'string' ? price : price.id) === 'price_basic'
      ? ({ plan: 'BASIC', billing: 'monthly' } as const)
      : undefined,
};

/** A subscription as API 2026 returns it: no current_period_* on the subscription itself. */
function sub(overrides: Record<string, unknown> = {}): Stripe.Subscription {
  return {
    id: 'sub_1',
    object: 'subscription',
    customer: 'cus_1',
    status: 'active',
    created: 1_700_000_000,
    cancel_at: null,
    cancel_at_period_end: false,
    trial_start: null,
    metadata: {},
    items: {
      object: 'list',
      data: [
        {
          id: 'si_1',
          price: { id: 'price_basic', lookup_key: null },
          current_period_start: 1_700_000_000,
          current_period_end: 1_702_592_000,
        },
      ],
    },
    ...overrides,
  } as unknown as Stripe.Subscription;
}

describe('provider status → ours (docs/design.md#subscription-status)', () => {
  it.each([
    ['trialing', 'TRIALING'],
    ['active', 'ACTIVE'],
    ['past_due', 'PAST_DUE'],
    ['unpaid', 'UNPAID'],
    ['canceled', 'CANCELLED'],
    ['incomplete_expired', 'EXPIRED'],
    ['paused', 'EXPIRED'],
    ['incomplete', null],
  ])('%s → %s', (provider, ours) => {
    expect(statusFromProvider(provider)).toBe(ours);
  });

  it('shows FREE once a subscription ended, its plan while it is unpaid', () => {
    expect(displayedPlan('PRO', 'CANCELLED')).toBe('FREE');
    expect(displayedPlan('PRO', 'EXPIRED')).toBe('FREE');
    expect(displayedPlan('PRO', 'UNPAID')).toBe('PRO');
  });
});

describe('reading a provider subscription', () => {
  it('takes the period from the subscription item', async () => {
    const s = await readProviderSubscription(sub(), prices);
    expect(s).toMatchObject({
      plan: 'BASIC',
      billing: 'monthly',
      status: 'ACTIVE',
      customerId: 'cus_1',
      currentPeriodStart: new Date(1_700_000_000_000),
      currentPeriodEnd: new Date(1_702_592_000_000),
      cancelAtPeriodEnd: false,
    });
  });

  it('treats cancel_at (portal cancellation) like cancel_at_period_end', async () => {
    expect(
      (await readProviderSubscription(sub({ cancel_at: 1_702_592_000 }), prices)).cancelAtPeriodEnd,
    ).toBe(true);
    expect(
      (await readProviderSubscription(sub({ cancel_at_period_end: true }), prices)).cancelAtPeriodEnd,
    ).toBe(true);
  });

  it('falls back to the plan in the metadata, and refuses a subscription selling nothing we know', async () => {
    const unknownPrice = sub({
      items: {
        data: [
          { price: { id: 'price_x', lookup_key: null }, current_period_start: 1, current_period_end: 2 },
        ],
      },
    });
    await expect(readProviderSubscription(unknownPrice, prices)).rejects.toThrow(/sells no plan/);
    const withMeta = { ...unknownPrice, metadata: { plan: 'PRO', billing: 'annual' } } as Stripe.Subscription;
    expect(await readProviderSubscription(withMeta, prices)).toMatchObject({
      plan: 'PRO',
      billing: 'annual',
    });
  });
});

describe('the subscription shown to the user', () => {
  const row = {
    userId: 'u',
    plan: 'BASIC' as const,
    status: 'ACTIVE' as const,
    billing: 'monthly' as const,
    providerStatus: 'active',
    stripeCustomerId: 'cus_1',
    stripeSubscriptionId: 'sub_1',
    currentPeriodStart: new Date('2026-01-01T00:00:00Z'),
    currentPeriodEnd: new Date('2026-02-01T00:00:00Z'),
    cancelAtPeriodEnd: false,
    trialUsedAt: null,
    providerCreatedAt: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  };

  it('is FREE/ACTIVE with nulls for a user who never paid', () => {
    expect(subscriptionView(undefined)).toMatchObject({
      plan: 'FREE',
      status: 'ACTIVE',
      planPrice: 0,
      stripeCustomerId: null,
      stripeSubscriptionId: null,
    });
  });

  it('after cancellation: plan FREE, status CANCELLED, the customer id kept', () => {
    expect(subscriptionView({ ...row, status: 'CANCELLED' })).toMatchObject({
      plan: 'FREE',
      status: 'CANCELLED',
      planPrice: 0,
      currentPeriodStart: null,
      stripeCustomerId: 'cus_1',
      stripeSubscriptionId: null,
    });
  });

  it('an UNPAID subscription keeps its plan and price but gets FREE limits', () => {
    const v = subscriptionView({ ...row, status: 'UNPAID' });
    expect(v).toMatchObject({ plan: 'BASIC', planPrice: 299, currentPeriodEnd: '2026-02-01T00:00:00.000Z' });
    expect(v.limits.profiles).toBe(1);
  });
});

describe('which subscription an event is about', () => {
  const ev = (type: string, object: object) => ({ type, data: { object } }) as unknown as Stripe.Event;
  it('reads it from subscriptions, subscription-mode checkouts and invoice parents', () => {
    expect(subscriptionIdOf(ev('customer.subscription.updated', { id: 'sub_1' }))).toBe('sub_1');
    expect(
      subscriptionIdOf(ev('checkout.session.completed', { mode: 'subscription', subscription: 'sub_2' })),
    ).toBe('sub_2');
    expect(
      subscriptionIdOf(ev('checkout.session.completed', { mode: 'payment', subscription: null })),
    ).toBeNull();
    expect(
      subscriptionIdOf(ev('invoice.paid', { parent: { subscription_details: { subscription: 'sub_3' } } })),
    ).toBe('sub_3');
    expect(subscriptionIdOf(ev('invoice.paid', { parent: null }))).toBeNull();
  });
});
