import { hitRateLimit } from '@folio/db/queries/rate-limits';
import type { Context } from '../context';
import { tooManyRequests } from '../errors';

export interface RateRule {
  /** Identifies the limit and who it applies to, e.g. `login:1.2.3.4:ana@x.mx`. */
  key: string;
  limit: number;
  windowMs: number;
}

/** Abuse limit: counts the attempt and refuses it with 429 + Retry-After past the limit. */
export async function enforceRateLimit(ctx: Context, rule: RateRule): Promise<void> {
  const hit = await hitRateLimit(ctx.db, rule.key, rule.windowMs);
  if (hit.points > rule.limit) {
    const retryAfter = Math.max(1, (hit.resetAt.getTime() - Date.now()) / 1000);
    throw tooManyRequests(`Too many attempts; try again in ${Math.ceil(retryAfter)} s`, retryAfter);
  }
}
