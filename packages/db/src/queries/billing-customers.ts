import { eq } from 'drizzle-orm';
import type { Executor } from '../client';
import { billingCustomers, subscriptions } from '../schema';

/** The provider customer stored for the user (from checkout, or from a synced subscription). */
export async function findBillingCustomerId(db: Executor, userId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: billingCustomers.stripeCustomerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId));
  if (row) return row.id;
  const [sub] = await db
    .select({ id: subscriptions.stripeCustomerId })
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId));
  return sub?.id ?? undefined;
}

/**
 * Stores the user's provider customer unless one is already stored, and returns the one that is:
 * of two concurrent first checkouts, both end up with the same customer.
 */
export async function saveBillingCustomer(
  db: Executor,
  userId: string,
  stripeCustomerId: string,
): Promise<string> {
  await db.insert(billingCustomers).values({ userId, stripeCustomerId }).onConflictDoNothing();
  const [row] = await db
    .select({ id: billingCustomers.stripeCustomerId })
    .from(billingCustomers)
    .where(eq(billingCustomers.userId, userId));
  if (!row) throw new Error(`billing customer of ${userId} was not stored`);
  return row.id;
}

/** Points the user at a new provider customer (the stored one no longer exists at the provider). */
export async function replaceBillingCustomer(
  db: Executor,
  userId: string,
  stripeCustomerId: string,
): Promise<void> {
  await db
    .insert(billingCustomers)
    .values({ userId, stripeCustomerId })
    .onConflictDoUpdate({
      target: billingCustomers.userId,
      set: { stripeCustomerId, createdAt: new Date() },
    });
}

/** Whose provider customer this is, if it is one of ours. */
export async function findUserByStripeCustomer(
  db: Executor,
  stripeCustomerId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: billingCustomers.userId })
    .from(billingCustomers)
    .where(eq(billingCustomers.stripeCustomerId, stripeCustomerId));
  if (row) return row.userId;
  const [sub] = await db
    .select({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(eq(subscriptions.stripeCustomerId, stripeCustomerId));
  return sub?.userId;
}
