import { and, eq, sql } from 'drizzle-orm';
import { type Db, type Executor, rowsOf } from '../client';
import { executePrepared } from '../prepared';
import { usageCounters } from '../schema';

export interface QuotaKey {
  userId: string;
  /** `YYYY-MM` */
  period: string;
  kind: string;
}

/**
 * Takes one unit of a monthly quota in a single statement: the counter only moves while it is under
 * `limit`, so concurrent requests can never overshoot. Returns whether it was taken and the count.
 */
export async function consumeQuota(
  db: Db,
  key: QuotaKey,
  limit: number,
): Promise<{ allowed: boolean; used: number }> {
  if (limit <= 0) return { allowed: false, used: await usedQuota(db, key) };
  const result = await db.execute(sql`
    insert into usage_counters (user_id, period, kind, used) values (${key.userId}, ${key.period}, ${key.kind}, 1)
    on conflict (user_id, period, kind) do update set used = usage_counters.used + 1
      where usage_counters.used < ${limit}
    returning used`);
  const [row] = rowsOf<{ used: number }>(result);
  return row ? { allowed: true, used: Number(row.used) } : { allowed: false, used: await usedQuota(db, key) };
}

/** Counts one unit with no ceiling (unlimited plans still get usage recorded). */
export async function countUsage(db: Executor, key: QuotaKey): Promise<number> {
  const result = await db.execute(sql`
    insert into usage_counters (user_id, period, kind, used) values (${key.userId}, ${key.period}, ${key.kind}, 1)
    on conflict (user_id, period, kind) do update set used = usage_counters.used + 1
    returning used`);
  return Number(rowsOf<{ used: number }>(result)[0]?.used ?? 0);
}

/**
 * Locks the counter row of a quota until the transaction ends (creating it at 0) and returns what is
 * used: a batch decides how many of its units fit, and no concurrent request can take them meanwhile.
 */
export async function lockUsage(tx: Executor, key: QuotaKey): Promise<number> {
  const result = await tx.execute(sql`
    insert into usage_counters (user_id, period, kind, used) values (${key.userId}, ${key.period}, ${key.kind}, 0)
    on conflict (user_id, period, kind) do update set used = usage_counters.used
    returning used`);
  return Number(rowsOf<{ used: number }>(result)[0]?.used ?? 0);
}

/** Counts `n` units at once (under `lockUsage` when the quota has a ceiling); returns the new count. */
export async function addUsage(db: Executor, key: QuotaKey, n: number): Promise<number> {
  const result = await db.execute(sql`
    insert into usage_counters (user_id, period, kind, used) values (${key.userId}, ${key.period}, ${key.kind}, ${n})
    on conflict (user_id, period, kind) do update set used = usage_counters.used + ${n}
    returning used`);
  return Number(rowsOf<{ used: number }>(result)[0]?.used ?? 0);
}

export async function usedQuota(db: Executor, key: QuotaKey): Promise<number> {
  const [row] = await db
    .select({ used: usageCounters.used })
    .from(usageCounters)
    .where(
      and(
        eq(usageCounters.userId, key.userId),
        eq(usageCounters.period, key.period),
        eq(usageCounters.kind, key.kind),
      ),
    );
  return row?.used ?? 0;
}

/** A quota's limit for one state of the subscription row (null plan and status: no row). */
export interface LimitOfState {
  plan: string | null;
  status: string | null;
  /** null: unlimited (still counted) */
  limit: number | null;
}

/**
 * Reads the user's subscription and takes one unit of the quota in one statement (a SAT search sent
 * them as two round trips): `limits` names the limit of every state the row can be in, and the unit is
 * taken only under the one that applies, so concurrent requests never overshoot (`consumeQuota`).
 * Returns the row's plan and status (null without one), the limit applied, whether the unit was
 * taken, and the count after it.
 */
export async function consumePlanQuota(
  db: Executor,
  key: QuotaKey,
  limits: readonly LimitOfState[],
): Promise<{
  plan: string | null;
  status: string | null;
  limit: number | null;
  allowed: boolean;
  used: number;
}> {
  const result = await executePrepared(
    db,
    sql`
    with sub as (
      select s.plan, s.status from (select) one left join subscriptions s on s.user_id = ${key.userId}),
    lim as (
      select l."limit" as lim from sub, jsonb_to_recordset(${JSON.stringify(limits)}::jsonb) l(plan text, status text, "limit" int)
      where l.plan is not distinct from sub.plan and l.status is not distinct from sub.status),
    taken as (
      insert into usage_counters (user_id, period, kind, used)
      select ${key.userId}, ${key.period}, ${key.kind}, 1 where coalesce((select lim from lim), 1) > 0
      on conflict (user_id, period, kind) do update set used = usage_counters.used + 1
        where (select lim from lim) is null or usage_counters.used < (select lim from lim)
      returning used)
    select sub.plan, sub.status, (select lim from lim) as lim, (select used from taken) as taken,
      (select used from usage_counters where user_id = ${key.userId} and period = ${key.period} and kind = ${key.kind}) as used
    from sub`,
  );
  const [row] = rowsOf<{
    plan: string | null;
    status: string | null;
    lim: number | null;
    taken: number | null;
    used: number | null;
  }>(result);
  if (!row) throw new Error('consumePlanQuota: no row');
  const taken = row.taken === null ? null : Number(row.taken);
  return {
    plan: row.plan,
    status: row.status,
    limit: row.lim === null ? null : Number(row.lim),
    allowed: taken !== null,
    used: taken ?? Number(row.used ?? 0),
  };
}
