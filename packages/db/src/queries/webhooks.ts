// Outgoing webhooks (docs/webhooks.md): endpoints, the events written in the transaction of the
// change they report, and one delivery row per event and endpoint that wants it.
import { randomUUID } from 'node:crypto';
import { and, arrayContains, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../client';
import { outgoingEvents, profiles, users, webhookDeliveries, webhookEndpoints } from '../schema';
import { lockUser } from './billing-profiles';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type NewEndpoint = typeof webhookEndpoints.$inferInsert;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type EventRow = typeof outgoingEvents.$inferSelect;

/** Inserts the endpoint unless the user already has `limit`; the user row lock serialises it. */
export async function insertEndpointWithinLimit(
  db: Db,
  values: NewEndpoint,
  limit: number,
): Promise<EndpointRow | null> {
  return db.transaction(async (tx) => {
    await lockUser(tx, values.userId);
    const [row] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, values.userId));
    if ((row?.n ?? 0) >= limit) return null;
    const [inserted] = await tx.insert(webhookEndpoints).values(values).returning();
    return inserted ?? null;
  });
}

export function listEndpoints(db: Executor, userId: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

/** The user's endpoint; undefined for another user's (the caller answers 404 either way). */
export async function findEndpoint(
  db: Executor,
  userId: string,
  id: string,
): Promise<EndpointRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)));
  return row;
}

export type EndpointChange = Partial<
  Pick<
    NewEndpoint,
    | 'url'
    | 'eventos'
    | 'activo'
    | 'disabledReason'
    | 'keyVersion'
    | 'wrappedKey'
    | 'secret'
    | 'previousKeyVersion'
    | 'previousWrappedKey'
    | 'previousSecret'
    | 'previousExpiresAt'
    | 'failingSince'
  >
>;

export async function updateEndpoint(
  db: Executor,
  userId: string,
  id: string,
  change: EndpointChange,
): Promise<EndpointRow | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...change, updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning();
  return row;
}

export async function deleteEndpoint(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/** A `webhook-id`: unique, and never with a "." (Standard Webhooks). */
const newEventId = () => `msg_${randomUUID().replaceAll('-', '')}`;

/** Whose event: a user, or the owner of a profile (the services that change CFDI know the profile). */
export type EventOwner = { userId: string } | { profileId: string };

const ownerId = (owner: EventOwner) =>
  'userId' in owner
    ? sql`${owner.userId}`
    : sql`(select ${profiles.userId} from ${profiles} where ${profiles.id} = ${owner.profileId})`;

/**
 * Writes events of one type, and a delivery for each active endpoint of the owner subscribed to it,
 * in the caller's transaction. With no such endpoint it is one indexed read and writes nothing.
 * `only`: the endpoint a test event goes to, whatever it subscribes to. Returns the deliveries made.
 */
export async function insertEvents(
  tx: Executor,
  owner: EventOwner,
  type: string,
  datas: object[],
  only?: string,
): Promise<number> {
  if (!datas.length) return 0;
  const targets = await tx
    .select({ id: webhookEndpoints.id, userId: webhookEndpoints.userId })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.userId, ownerId(owner)),
        // The bare column, as the partial index's predicate has it (so the planner can use it).
        sql`${webhookEndpoints.activo}`,
        only ? eq(webhookEndpoints.id, only) : arrayContains(webhookEndpoints.eventos, [type]),
      ),
    );
  if (!targets.length) return 0;
  const userId = targets[0]!.userId;
  const events = datas.map((data) => ({ id: newEventId(), type, userId, data }));
  await tx.insert(outgoingEvents).values(events);
  const deliveries = events.flatMap((e) =>
    targets.map((t) => ({ id: randomUUID(), endpointId: t.id, eventId: e.id })),
  );
  await tx.insert(webhookDeliveries).values(deliveries);
  return deliveries.length;
}

/**
 * Pending deliveries that need a job: none exists for their next attempt, or it is over a minute
 * late (its worker died mid-attempt, or the job was lost); oldest first, locked for the caller.
 */
export function unqueuedDeliveries(tx: Executor, limit: number) {
  return tx
    .select({
      id: webhookDeliveries.id,
      attempts: webhookDeliveries.attempts,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .where(
      sql`${webhookDeliveries.status} = 'pending' and (${webhookDeliveries.queuedAttempt} is distinct from ${webhookDeliveries.attempts} or ${webhookDeliveries.nextAttemptAt} < now() - interval '1 minute')`,
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** Records that a job exists for each delivery's `attempt`. */
export async function markQueued(tx: Executor, rows: { id: string; attempt: number }[]): Promise<void> {
  for (const r of rows) {
    await tx
      .update(webhookDeliveries)
      .set({ queuedAttempt: r.attempt })
      .where(eq(webhookDeliveries.id, r.id));
  }
}

export interface ClaimedDelivery {
  delivery: DeliveryRow;
  event: EventRow;
  endpoint: EndpointRow;
}

/**
 * Takes attempt number `attempt` (0 = the first) of a pending delivery: counts it made, so a second
 * run of the same job finds nothing, and leases it for `leaseSeconds`. Undefined when it was made
 * already or the delivery is done.
 */
export async function claimAttempt(
  db: Db,
  id: string,
  attempt: number,
  leaseSeconds: number,
): Promise<ClaimedDelivery | undefined> {
  return db.transaction(async (tx) => {
    const [delivery] = await tx
      .update(webhookDeliveries)
      .set({
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        queuedAttempt: sql`${webhookDeliveries.attempts} + 1`,
        nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})`,
      })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          eq(webhookDeliveries.attempts, attempt),
          eq(webhookDeliveries.status, 'pending'),
        ),
      )
      .returning();
    if (!delivery) return undefined;
    const [found] = await tx
      .select({ event: outgoingEvents, endpoint: webhookEndpoints })
      .from(outgoingEvents)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, delivery.endpointId))
      .where(eq(outgoingEvents.id, delivery.eventId));
    return found && { delivery, ...found };
  });
}

/** An attempt's outcome on its delivery: succeeded, failed for good, or due again at `nextAttemptAt`. */
export async function recordAttempt(
  tx: Executor,
  id: string,
  outcome: {
    status: DeliveryRow['status'];
    statusCode: number | null;
    error: string | null;
    nextAttemptAt?: Date;
    queuedAttempt?: number;
  },
): Promise<void> {
  const failed = outcome.status !== 'succeeded';
  await tx
    .update(webhookDeliveries)
    .set({
      status: outcome.status,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.error,
      ...(outcome.nextAttemptAt ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
      ...(outcome.queuedAttempt !== undefined ? { queuedAttempt: outcome.queuedAttempt } : {}),
      ...(failed ? { firstFailedAt: sql`coalesce(${webhookDeliveries.firstFailedAt}, now())` } : {}),
    })
    .where(eq(webhookDeliveries.id, id));
}

/**
 * After an attempt: a success clears the endpoint's failing streak; a failure starts one (keeping
 * its start). Returns the start of the streak (null after a success).
 */
export async function recordEndpointOutcome(tx: Executor, id: string, ok: boolean): Promise<Date | null> {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ failingSince: ok ? null : sql`coalesce(${webhookEndpoints.failingSince}, now())` })
    .where(eq(webhookEndpoints.id, id))
    .returning({ failingSince: webhookEndpoints.failingSince });
  return row?.failingSince ?? null;
}

/**
 * Turns an active endpoint off for `reason` and fails its pending deliveries; false when it was
 * already off (so its owner is mailed once).
 */
export async function disableEndpoint(tx: Executor, id: string, reason: string): Promise<boolean> {
  const rows = await tx
    .update(webhookEndpoints)
    .set({ activo: false, disabledReason: reason, updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.activo, true)))
    .returning({ id: webhookEndpoints.id });
  if (!rows.length) return false;
  await tx
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError: `endpoint disabled (${reason})` })
    .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, 'pending')));
  return true;
}

/** An endpoint's deliveries, newest first, with their event's type. */
export function listDeliveries(db: Executor, endpointId: string, limit: number) {
  return db
    .select({ delivery: webhookDeliveries, type: outgoingEvents.type })
    .from(webhookDeliveries)
    .innerJoin(outgoingEvents, eq(outgoingEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

/**
 * A finished delivery made due again now (a manual redelivery: one more attempt, same event id).
 * Undefined when it is not the endpoint's or is still pending.
 */
export async function reopenDelivery(
  db: Executor,
  endpointId: string,
  id: string,
): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: new Date(), queuedAttempt: null })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.endpointId, endpointId),
        inArray(webhookDeliveries.status, ['succeeded', 'failed']),
      ),
    )
    .returning();
  return row;
}

/** The endpoint's delivery with its event's type. */
export async function findDelivery(db: Executor, endpointId: string, id: string) {
  const [row] = await db
    .select({ delivery: webhookDeliveries, type: outgoingEvents.type })
    .from(webhookDeliveries)
    .innerJoin(outgoingEvents, eq(outgoingEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)));
  return row;
}

/** The address of the endpoint owner's account. */
export async function endpointOwnerEmail(db: Executor, endpointId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ email: users.email })
    .from(webhookEndpoints)
    .innerJoin(users, eq(users.id, webhookEndpoints.userId))
    .where(eq(webhookEndpoints.id, endpointId));
  return row?.email;
}
