import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../client';

export interface WindowHit {
  /** Hits in the current window, this one included. */
  points: number;
  resetAt: Date;
}

/**
 * Counts one hit on `key` in a fixed window, atomically in the database (one statement), so every
 * process sharing the database sees the same count. An expired window restarts at 1.
 */
export async function hitRateLimit(db: Db, key: string, windowMs: number): Promise<WindowHit> {
  const result = await db.execute(sql`
    insert into rate_limits (key, points, expires_at)
    values (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}))
    on conflict (key) do update set
      points = case when rate_limits.expires_at <= now() then 1 else rate_limits.points + 1 end,
      expires_at = case when rate_limits.expires_at <= now() then excluded.expires_at else rate_limits.expires_at end
    returning points, expires_at`);
  const [row] = rowsOf<{ points: number; expires_at: string | Date }>(result);
  if (!row) throw new Error('rate limit upsert returned no row');
  return { points: Number(row.points), resetAt: new Date(row.expires_at) };
}

/** Forgets a key, e.g. after a successful login. */
export async function resetRateLimit(db: Db, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}

/** Takes back one hit on `key` (an attempt that turned out legitimate), never below zero. */
export async function refundRateLimit(db: Db, key: string): Promise<void> {
  await db.execute(sql`update rate_limits set points = greatest(points - 1, 0) where key = ${key}`);
}
