import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../client';
import { subscriptions } from '../schema';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

export async function findSubscription(db: Db | Tx, userId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  return row;
}
