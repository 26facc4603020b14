import type { SubscriptionRow } from '@folio/db/queries/subscriptions';
import { effectivePlan, type SubscriptionStatus } from './entitlements';
import {
  DEFAULT_MONTHLY_PRICES,
  type MonthlyPrices,
  PLAN_LIMITS,
  type PlanId,
  type PlanLimits,
} from './plans';
import { displayedPlan } from './status';

/** The Subscription resource of docs/contract.md#resources. */
export interface SubscriptionView {
  plan: PlanId;
  status: SubscriptionStatus;
  planPrice: number;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  limits: PlanLimits;
}

/**
 * What the user's stored subscription looks like to them. No row: the FREE shape (docs/design.md#subscription-status). An
 * ended subscription shows plan FREE with its status (CANCELLED/EXPIRED), no periods, and keeps the
 * provider customer id (billing history stays reachable for support); limits follow the effective plan.
 */
export function subscriptionView(
  row: SubscriptionRow | undefined,
  prices: MonthlyPrices = DEFAULT_MONTHLY_PRICES,
): SubscriptionView {
  if (!row) {
    return {
      plan: 'FREE',
      status: 'ACTIVE',
      planPrice: 0,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      stripeCustomerId: null,
      stripeSubscriptionId: null,
      limits: PLAN_LIMITS.FREE,
    };
  }
  const plan = displayedPlan(row.plan, row.status);
  const ended = plan === 'FREE';
  return {
    plan,
    status: row.status,
    planPrice: prices[plan],
    currentPeriodStart: ended ? null : (row.currentPeriodStart?.toISOString() ?? null),
    currentPeriodEnd: ended ? null : (row.currentPeriodEnd?.toISOString() ?? null),
    cancelAtPeriodEnd: ended ? false : row.cancelAtPeriodEnd,
    stripeCustomerId: row.stripeCustomerId,
    stripeSubscriptionId: ended ? null : row.stripeSubscriptionId,
    limits: PLAN_LIMITS[effectivePlan(row.plan, row.status)],
  };
}
