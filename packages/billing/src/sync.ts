import type { Db, Tx } from '@folio/db';
import { writeAudit } from '@folio/db/queries/audit';
import { findUserByStripeCustomer } from '@folio/db/queries/billing-customers';
import { fitProfilesToLimit, lockUser } from '@folio/db/queries/billing-profiles';
import { findSubscription, upsertSubscription } from '@folio/db/queries/subscriptions';
import { insertEvents } from '@folio/db/queries/webhooks';
import type Stripe from 'stripe';
import { effectivePlan, type SubscriptionStatus } from './entitlements';
import { type Billing, PLAN_LIMITS, type PlanId } from './plans';
import type { BillingProvider } from './provider';
import { LIVE_STATUSES, statusFromProvider } from './status';

export interface BillingLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What billing code needs from the process: the database, the provider, a logger. */
export interface BillingDeps {
  db: Db;
  billing: BillingProvider;
  log: BillingLog;
}

/** A provider subscription reduced to what we store. */
export interface ProviderSubscriptionState {
  subscriptionId: string;
  customerId: string;
  /** null: `incomplete`, which changes nothing for us. */
  status: SubscriptionStatus | null;
  providerStatus: string;
  plan: PlanId;
  billing: Billing | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  trialStart: Date | null;
  createdAt: Date;
}

const date = (s: number | null | undefined) => (s ? new Date(s * 1000) : null);
const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? null));

/**
 * Reads a Stripe subscription of API version 2026 (basil and later): the period comes from its
 * items, and a portal cancellation may set only `cancel_at`.
 */
export async function readProviderSubscription(
  sub: Stripe.Subscription,
  provider: Pick<BillingProvider, 'planOfPrice'>,
): Promise<ProviderSubscriptionState> {
  const item = sub.items.data[0];
  const sold = item ? await provider.planOfPrice(item.price) : undefined;
  const metaPlan = sub.metadata?.plan;
  const plan = sold?.plan ?? (metaPlan === 'BASIC' || metaPlan === 'PRO' ? metaPlan : undefined);
  if (!plan) {
    throw new Error(`subscription ${sub.id} sells no plan we know (price ${item?.price?.id ?? 'none'})`);
  }
  const metaBilling = sub.metadata?.billing;
  return {
    subscriptionId: sub.id,
    customerId: idOf(sub.customer) ?? '',
    status: statusFromProvider(sub.status),
    providerStatus: sub.status,
    plan,
    billing: sold?.billing ?? (metaBilling === 'monthly' || metaBilling === 'annual' ? metaBilling : null),
    currentPeriodStart: date(item?.current_period_start),
    currentPeriodEnd: date(item?.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end || sub.cancel_at != null,
    trialStart: date(sub.trial_start),
    createdAt: date(sub.created) ?? new Date(),
  };
}

export type SyncSource =
  | { kind: 'webhook'; eventId: string; eventType: string }
  | { kind: 'checkout-return'; sessionId: string };

export interface SyncOutcome {
  applied: boolean;
  /** Why nothing was written: `incomplete`, or the subscription is not the user's current one. */
  skipped?: 'incomplete' | 'not-current' | 'older';
  before: { plan: PlanId; status: SubscriptionStatus } | null;
  after: { plan: PlanId; status: SubscriptionStatus } | null;
  frozen: string[];
  unfrozen: string[];
  /** A live subscription this one replaces; it is cancelled at the provider after commit. */
  superseded?: string;
}

/**
 * Writes the provider's current state of `sub` as the user's subscription, inside the caller's
 * transaction (the user row is locked by the caller), then makes the profiles fit the plan:
 * surplus ones frozen newest first, frozen ones thawed when the plan allows more. One subscription
 * per user: a newer live subscription replaces the current one; an older or ended other one is ignored.
 */
export async function applyProviderSubscription(
  tx: Tx,
  userId: string,
  sub: Stripe.Subscription,
  provider: Pick<BillingProvider, 'planOfPrice'>,
  source: SyncSource,
  now: Date = new Date(),
): Promise<SyncOutcome> {
  const state = await readProviderSubscription(sub, provider);
  const current = await findSubscription(tx, userId);
  const before = current
    ? { plan: effectivePlan(current.plan, current.status), status: current.status }
    : null;
  const none = { applied: false, before, after: null, frozen: [], unfrozen: [] };
  if (!state.status) return { ...none, skipped: 'incomplete' };
  let superseded: string | undefined;
  if (current?.stripeSubscriptionId && current.stripeSubscriptionId !== state.subscriptionId) {
    if (!LIVE_STATUSES.has(state.status)) return { ...none, skipped: 'not-current' };
    if (LIVE_STATUSES.has(current.status)) {
      if (current.providerCreatedAt && current.providerCreatedAt >= state.createdAt) {
        return { ...none, skipped: 'older' };
      }
      superseded = current.stripeSubscriptionId;
    }
  }
  const row = await upsertSubscription(tx, {
    userId,
    plan: state.plan,
    status: state.status,
    billing: state.billing,
    providerStatus: state.providerStatus,
    stripeCustomerId: state.customerId || null,
    stripeSubscriptionId: state.subscriptionId,
    currentPeriodStart: state.currentPeriodStart,
    currentPeriodEnd: state.currentPeriodEnd,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    trialUsedAt: current?.trialUsedAt ?? state.trialStart,
    providerCreatedAt: state.createdAt,
  });
  const plan = effectivePlan(row.plan, row.status);
  const after = { plan, status: row.status };
  if (before?.plan !== after.plan || before?.status !== after.status) {
    // The one place a subscription changes: its event commits with it (docs/webhooks.md).
    await insertEvents(tx, { userId }, 'subscription.updated', [{ ...after, updated_at: now.toISOString() }]);
  }
  const { frozen, unfrozen } = await fitProfilesToLimit(tx, userId, PLAN_LIMITS[plan].profiles, now);
  await writeAudit(tx, {
    userId,
    action: 'subscription.sync',
    entity: 'subscription',
    entityId: state.subscriptionId,
    data: { source, providerStatus: state.providerStatus, from: before, to: after, superseded },
  });
  for (const [ids, action] of [
    [frozen, 'profile.freeze'],
    [unfrozen, 'profile.unfreeze'],
  ] as const) {
    for (const entityId of ids) {
      await writeAudit(tx, {
        userId,
        action,
        entity: 'profile',
        entityId,
        data: { reason: 'PLAN_LIMIT', plan },
      });
    }
  }
  return { applied: true, before, after, frozen, unfrozen, superseded };
}

export const isMissingAtProvider = (err: unknown): boolean =>
  (err as { code?: string; statusCode?: number })?.code === 'resource_missing';

/**
 * Re-reads one subscription from the provider and applies it for its owner, in one transaction with
 * `record` (the webhook records the event id there). The owner is the user whose provider customer
 * it is, or the `userId` we put in its metadata at checkout.
 */
export async function syncSubscription(
  deps: BillingDeps,
  input: {
    subscriptionId: string;
    customerId: string | null;
    source: SyncSource;
    /** Runs first in the transaction; returning false stops everything (a duplicate event). */
    record?: (tx: Tx) => Promise<boolean>;
  },
): Promise<{ result: 'processed' | 'duplicate' | 'ignored'; userId?: string; outcome?: SyncOutcome }> {
  const { db, billing, log } = deps;
  const done = await db.transaction(async (tx) => {
    if (input.record && !(await input.record(tx))) return { result: 'duplicate' as const };
    let userId = input.customerId ? await findUserByStripeCustomer(tx, input.customerId) : undefined;
    let sub: Stripe.Subscription | undefined;
    const retrieve = async () => {
      try {
        return await billing.stripe.subscriptions.retrieve(input.subscriptionId);
      } catch (err) {
        if (isMissingAtProvider(err)) return undefined;
        throw err;
      }
    };
    if (!userId) {
      sub = await retrieve();
      userId = sub?.metadata?.userId;
    }
    if (!userId || !(await lockUser(tx, userId))) {
      log.warn({ ...input, record: undefined }, 'billing: subscription of no user of ours; ignored');
      return { result: 'ignored' as const };
    }
    // Read after the lock, so concurrent deliveries for one user apply the newest state last.
    sub = await retrieve();
    if (!sub) {
      log.warn({ subscriptionId: input.subscriptionId }, 'billing: subscription missing at the provider');
      return { result: 'ignored' as const, userId };
    }
    const outcome = await applyProviderSubscription(tx, userId, sub, billing, input.source);
    return { result: 'processed' as const, userId, outcome };
  });
  if (done.outcome?.superseded) await cancelSuperseded(deps, done.outcome.superseded);
  return done;
}

/** A user who checks out a second plan keeps one subscription: the older one is cancelled. */
async function cancelSuperseded(deps: BillingDeps, subscriptionId: string): Promise<void> {
  try {
    await deps.billing.stripe.subscriptions.cancel(subscriptionId, { prorate: true });
    deps.log.info({ subscriptionId }, 'billing: cancelled the subscription a newer one replaced');
  } catch (err) {
    deps.log.error(
      { err, subscriptionId },
      'billing: could not cancel a replaced subscription; cancel it by hand',
    );
  }
}
