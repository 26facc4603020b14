import { CHECKOUT_PLANS, getEntitlements, PLAN_LIMITS, type PlanLimits } from '@folio/billing';
import type { Context } from '../../context';
import { planRequired } from '../../errors';

/** Searches kept per user: the newest; older ones drop off as new ones are recorded. */
export const HISTORY_KEPT = 1000;
/** Favorites one user may hold. */
export const MAX_FAVORITES = 500;
/** Characters a favorite's note may hold. */
export const MAX_NOTA_LENGTH = 500;

type SatFeature = 'satHasHistory' | 'satHasFavorites' | 'satHasAlerts';

const NAMES: Record<SatFeature, string> = {
  satHasHistory: 'SAT search history',
  satHasFavorites: 'SAT favorites',
  satHasAlerts: 'SAT catalog alerts',
};

/** "SAT favorites requires the PRO plan": the plans sold with the feature, read from the plan table. */
export const featureRequired = (feature: SatFeature) =>
  `${NAMES[feature]} requires the ${CHECKOUT_PLANS.filter((p) => PLAN_LIMITS[p][feature]).join(' or ')} plan`;

/** The plan's limits, or 403 when they lack the feature (what was saved stays: a downgrade hides it). */
export async function requireSatFeature(
  ctx: Context,
  userId: string,
  feature: SatFeature,
): Promise<PlanLimits> {
  const { limits } = await getEntitlements(ctx.db, userId);
  if (!limits[feature]) throw planRequired(featureRequired(feature));
  return limits;
}
