import {
  type Entitlements,
  entitlementsOf,
  limitByState,
  nextQuotaReset,
  type PlanId,
  type PlanLimits,
  quotaPeriod,
  type SubscriptionStatus,
} from '@folio/billing';
import type { Executor } from '@folio/db';
import {
  addUsage,
  consumePlanQuota,
  consumeQuota,
  countUsage,
  lockUsage,
  usedQuota,
} from '@folio/db/queries/usage';
import type { Context } from '../context';
import { tooManyRequests } from '../errors';

/**
 * Takes one unit of a monthly plan quota (null limit = unlimited, still counted), reporting what is
 * left in X-Quota-Limit / X-Quota-Remaining; past the limit, 429 with Retry-After until next month.
 * Returns the month's count with this unit.
 */
export async function takeMonthlyQuota(
  ctx: Context,
  userId: string,
  kind: string,
  limit: number | null,
  what: string,
  db: Executor = ctx.db,
): Promise<number> {
  const key = { userId, kind, period: quotaPeriod() };
  if (limit === null) {
    const used = await countUsage(db, key);
    reportQuota(ctx, null, used);
    return used;
  }
  const { allowed, used } = await consumeQuota(db, key, limit);
  reportQuota(ctx, limit, used);
  if (!allowed) throw quotaExceeded(what, limit);
  return used;
}

/** X-Quota-Limit / X-Quota-Remaining after a take (null limit: unlimited). */
function reportQuota(ctx: Context, limit: number | null, used: number) {
  const headers = ctx.req.resHeaders;
  headers.set('X-Quota-Limit', limit === null ? 'unlimited' : String(limit));
  if (limit !== null) headers.set('X-Quota-Remaining', String(Math.max(0, limit - used)));
}

/**
 * `takeMonthlyQuota` with the plan read in the same statement (`consumePlanQuota`): for a request
 * whose first need of the plan is its quota, one round trip instead of two. Returns the
 * entitlements it read, as `getEntitlements` would have, and the month's count with this unit.
 */
export async function takePlanQuota(
  ctx: Context,
  userId: string,
  kind: string,
  limitOf: (l: PlanLimits) => number | null,
  what: string,
): Promise<Entitlements & { used: number }> {
  const key = { userId, kind, period: quotaPeriod() };
  const taken = await consumePlanQuota(ctx.db, key, limitByState(limitOf));
  const sub = taken.plan ? { plan: taken.plan as PlanId, status: taken.status as SubscriptionStatus } : null;
  reportQuota(ctx, taken.limit, taken.used);
  if (!taken.allowed && taken.limit !== null) throw quotaExceeded(what, taken.limit);
  return { ...entitlementsOf(sub), used: taken.used };
}

/** The 429 for a monthly quota that is used up, with Retry-After until next month. */
export function quotaExceeded(what: string, limit: number) {
  const reset = nextQuotaReset();
  return tooManyRequests(
    `Monthly ${what} limit of your plan reached (${limit}); it resets on ${reset.toISOString()}`,
    (reset.getTime() - Date.now()) / 1000,
    'quota_exceeded',
  );
}

/**
 * Units of a monthly quota still free right now (Infinity when unlimited): lets a batch skip work
 * that could not be counted. Only a hint under concurrency; `takeMonthlyQuota` decides.
 */
export async function monthlyQuotaLeft(
  ctx: Context,
  userId: string,
  kind: string,
  limit: number | null,
): Promise<number> {
  if (limit === null) return Number.POSITIVE_INFINITY;
  return Math.max(0, limit - (await usedQuota(ctx.db, { userId, kind, period: quotaPeriod() })));
}

/**
 * A monthly quota taken by a batch in its transaction: `free()` locks the user's counter until commit
 * and says how many units are left (Infinity when unlimited); `take(n)` counts the units the batch
 * stored, reporting what is left in X-Quota-Limit / X-Quota-Remaining. Exact across processes: the
 * lock holds every other batch of the user between the two.
 */
export function batchQuota(ctx: Context, db: Executor, userId: string, kind: string, limit: number | null) {
  const key = { userId, kind, period: quotaPeriod() };
  return {
    free: async () =>
      limit === null ? Number.POSITIVE_INFINITY : Math.max(0, limit - (await lockUsage(db, key))),
    async take(n: number) {
      reportQuota(ctx, limit, await addUsage(db, key, n));
    },
  };
}
