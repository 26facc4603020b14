import type { PlanId } from '@folio/billing';
import { planRequired } from '../../errors';

/** Plans that store an e.firma and sync with SAT (integrations.md §1). */
export const SAT_SYNC_PLANS: readonly PlanId[] = ['BASIC', 'PRO', 'ENTERPRISE'];
export const SAT_SYNC_REQUIRED = 'SAT sync (the stored e.firma) requires the BASIC or PRO plan';

export function requireSatSyncPlan(plan: PlanId): void {
  if (!SAT_SYNC_PLANS.includes(plan)) throw planRequired(SAT_SYNC_REQUIRED);
}
