import type { SubscriptionStatus } from './entitlements';
import type { PlanId } from './plans';

/**
 * Provider status → ours (docs/design.md#subscription-status). `incomplete` (first payment still pending) maps to nothing: it
 * neither grants the plan nor replaces what the user has.
 */
export function statusFromProvider(status: string): SubscriptionStatus | null {
  switch (status) {
    case 'trialing':
      return 'TRIALING';
    case 'active':
      return 'ACTIVE';
    case 'past_due':
      return 'PAST_DUE';
    case 'unpaid':
      return 'UNPAID';
    case 'canceled':
      return 'CANCELLED';
    case 'incomplete_expired':
    case 'paused':
      return 'EXPIRED';
    default:
      return null;
  }
}

/** Statuses of a subscription that still exists at the provider (it may bill, or be paid again). */
export const LIVE_STATUSES: ReadonlySet<SubscriptionStatus> = new Set([
  'TRIALING',
  'ACTIVE',
  'PAST_DUE',
  'UNPAID',
]);

/** Statuses in which the user is on the paid plan for the 409 of a repeated checkout (docs/contract.md#routes). */
export const SUBSCRIBED_STATUSES: ReadonlySet<SubscriptionStatus> = new Set([
  'TRIALING',
  'ACTIVE',
  'PAST_DUE',
]);

/**
 * The plan shown to the user: an ended subscription (CANCELLED, EXPIRED) shows FREE; an UNPAID one
 * still shows its plan (the user owes it and can pay it in the portal) while FREE limits apply.
 */
export function displayedPlan(plan: PlanId, status: SubscriptionStatus): PlanId {
  return status === 'CANCELLED' || status === 'EXPIRED' ? 'FREE' : plan;
}
