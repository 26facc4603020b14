import type { Executor } from '@folio/db';
import { findSubscription } from '@folio/db/queries/subscriptions';
import { PLAN_IDS, PLAN_LIMITS, type PlanId, type PlanLimits } from './plans';

export const SUBSCRIPTION_STATUSES = [
  'ACTIVE',
  'CANCELLED',
  'EXPIRED',
  'PAST_DUE',
  'UNPAID',
  'TRIALING',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Statuses in which the paid plan's limits apply (PAST_DUE is the grace period while retries run). */
const PAID_STATUSES = new Set<SubscriptionStatus>(['ACTIVE', 'TRIALING', 'PAST_DUE']);

export interface Entitlements {
  /** The plan whose limits apply now. */
  plan: PlanId;
  status: SubscriptionStatus;
  limits: PlanLimits;
}

export function effectivePlan(plan: PlanId, status: SubscriptionStatus): PlanId {
  return PAID_STATUSES.has(status) ? plan : 'FREE';
}

/** The one place that decides what a user may do: the subscription row, or FREE without one. */
export async function getEntitlements(db: Executor, userId: string): Promise<Entitlements> {
  return entitlementsOf(await findSubscription(db, userId));
}

/** What a subscription row (or none) entitles to. */
export function entitlementsOf(sub: SubscriptionState | undefined | null): Entitlements {
  if (!sub) return { plan: 'FREE', status: 'ACTIVE', limits: PLAN_LIMITS.FREE };
  const plan = effectivePlan(sub.plan, sub.status);
  return { plan, status: sub.status, limits: PLAN_LIMITS[plan] };
}

export interface SubscriptionState {
  plan: PlanId;
  status: SubscriptionStatus;
}

/** One row of `limitByState`: null plan and status stand for no subscription row. */
export interface StateLimit {
  plan: PlanId | null;
  status: SubscriptionStatus | null;
  limit: number | null;
}

/**
 * One numeric limit for every state a subscription row can be in, and for no row: a statement that
 * reads the row itself (the quota take of a SAT search, `consumePlanQuota`) applies the limit it
 * finds there, while what each state means stays decided here, by `entitlementsOf`.
 */
export function limitByState(limit: (l: PlanLimits) => number | null): StateLimit[] {
  const states: StateLimit[] = [{ plan: null, status: null, limit: limit(entitlementsOf(null).limits) }];
  for (const plan of PLAN_IDS)
    for (const status of SUBSCRIPTION_STATUSES)
      states.push({ plan, status, limit: limit(entitlementsOf({ plan, status }).limits) });
  return states;
}
