import type { PlanId } from '@folio/billing';
import { planRequired } from '../../errors';

/** Plans that store an e.firma and sync with SAT (integrations.md §1). */
export const SAT_SYNC_PLANS: readonly PlanId[] = ['BASIC', 'PRO', 'ENTERPRISE'];
export const SAT_SYNC_REQUIRED = 'SAT sync (the stored e.firma) requires the BASIC or PRO plan';

export function requireSatSyncPlan(plan: PlanId): void {
  if (!SAT_SYNC_PLANS.includes(plan)) throw planRequired(SAT_SYNC_REQUIRED);
}

/**
 * The consent the upload records, by version: what the taxpayer agrees to. A new wording gets a new
 * version; stored consents keep the version they were given under.
 */
export const CONSENT_VERSION = '2026-11-v1';
export const CONSENT_TEXT =
  'Autorizo a Folio a guardar mi e.firma cifrada y a usarla solo para descargar mis CFDI y sus metadatos del SAT y consultar su estado. Puedo borrarla en cualquier momento.';
