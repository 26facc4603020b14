import { subscriptionView } from '@folio/billing';
import { findSubscription } from '@folio/db/queries/subscriptions';
import type { Context } from '../../context';

/** The user's subscription as stored (the provider is never called for it). */
export async function currentSubscription(ctx: Context, userId: string) {
  return subscriptionView(await findSubscription(ctx.db, userId), ctx.billing.monthlyPrices);
}
