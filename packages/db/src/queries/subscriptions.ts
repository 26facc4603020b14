import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import { prepared } from '../prepared';
import { subscriptions } from '../schema';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

export async function findSubscription(db: Executor, userId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await prepared(db, 'findSubscription', (c) =>
    c
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, sql.placeholder('userId'))),
  ).execute({ userId });
  return row;
}

export type SubscriptionValues = typeof subscriptions.$inferInsert;

/** Writes the user's subscription as the provider reports it now (one row per user). */
export async function upsertSubscription(db: Executor, values: SubscriptionValues): Promise<SubscriptionRow> {
  const { userId: _, createdAt: __, ...set } = values;
  const [row] = await db
    .insert(subscriptions)
    .values(values)
    .onConflictDoUpdate({ target: subscriptions.userId, set: { ...set, updatedAt: new Date() } })
    .returning();
  if (!row) throw new Error(`subscription of ${values.userId} was not written`);
  return row;
}
