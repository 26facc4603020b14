import type { Executor } from '@folio/db';
import { findSubscription } from '@folio/db/queries/subscriptions';
import { PLAN_LIMITS, type PlanId, type PlanLimits } from './plans';

export type SubscriptionStatus = 'ACTIVE' | 'CANCELLED' | 'EXPIRED' | 'PAST_DUE' | 'UNPAID' | 'TRIALING';

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
  const sub = await findSubscription(db, userId);
  if (!sub) return { plan: 'FREE', status: 'ACTIVE', limits: PLAN_LIMITS.FREE };
  const plan = effectivePlan(sub.plan, sub.status);
  return { plan, status: sub.status, limits: PLAN_LIMITS[plan] };
}
