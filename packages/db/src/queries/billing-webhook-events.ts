import { eq } from 'drizzle-orm';
import type { Executor } from '../client';
import { webhookEvents } from '../schema';

/** A cheap look before calling the provider; the insert below is what actually decides. */
export async function isWebhookEventRecorded(db: Executor, id: string): Promise<boolean> {
  const [row] = await db.select({ id: webhookEvents.id }).from(webhookEvents).where(eq(webhookEvents.id, id));
  return row !== undefined;
}

/**
 * Records a provider event; false when it was already recorded (a redelivery). Call it in the
 * transaction of the event's effect, so a failure rolls both back and the retry applies it.
 */
export async function recordWebhookEvent(tx: Executor, id: string, type: string): Promise<boolean> {
  const rows = await tx
    .insert(webhookEvents)
    .values({ id, type })
    .onConflictDoNothing()
    .returning({ id: webhookEvents.id });
  return rows.length > 0;
}
