import { and, eq, sql } from 'drizzle-orm';
import { type Db, type Executor, rowsOf } from '../client';
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
