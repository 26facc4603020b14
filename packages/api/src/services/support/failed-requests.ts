import { recordRequestFailure } from '@folio/db/queries/support';
import type { Context } from '../../context';

/** Failed calls kept per user: the ones a support request names (integrations §3). */
export const FAILURES_KEPT = 20;

/**
 * Remembers that a call of the user failed (its request id, status and code), for their next
 * support request. Never fails the call: the answer the user gets is the original error.
 */
export async function recordFailedRequest(
  ctx: Context,
  userId: string,
  failed: { status: number; code: string },
): Promise<void> {
  try {
    await recordRequestFailure(ctx.db, { userId, requestId: ctx.req.requestId, ...failed }, FAILURES_KEPT);
  } catch (err) {
    ctx.log.warn({ err, requestId: ctx.req.requestId }, 'support: a failed request was not recorded');
  }
}
