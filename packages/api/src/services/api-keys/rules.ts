import { CHECKOUT_PLANS, PLAN_LIMITS } from '@folio/billing';
import { forbidden } from '../../errors';

/** Active (unrevoked, unexpired) keys one user may hold (plan-features §1). */
export const MAX_ACTIVE_API_KEYS = 20;
/** last_used_at resolution: a busy key writes its row at most this often. */
export const LAST_USED_RESOLUTION_MS = 60_000;

const plansWithApiAccess = CHECKOUT_PLANS.filter((p) => PLAN_LIMITS[p].apiAccess).join(' or ');
export const API_ACCESS_REQUIRED = `API access requires the ${plansWithApiAccess} plan`;

/**
 * Keys cannot manage keys, log out, change billing or delete profiles: a leaked key must not be able
 * to mint more keys, lock its owner out of billing or destroy data beyond what it can already reach.
 */
export function requireSession(principal: { via: 'session' | 'api_key' }): void {
  if (principal.via === 'api_key') {
    throw forbidden(
      'This operation needs a logged-in session; API keys cannot perform it',
      'session_required',
    );
  }
}
