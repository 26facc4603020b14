import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A user's outgoing webhook endpoint (docs/webhooks.md). The signing secret is sealed like an
 * e.firma (AES-256-GCM under a data key of this row, wrapped by the master key of `key_version`), so
 * a database read alone cannot sign. During a rotation's grace period the previous secret is kept,
 * sealed the same way, until `previous_expires_at`.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    eventos: text('eventos').array().notNull(),
    descripcion: text('descripcion'),
    activo: boolean('activo').notNull().default(true),
    /** Why the service turned it off (`gone`: a 410; `failing`: 3 days of failures); null when the user did. */
    disabledReason: text('disabled_reason'),
    keyVersion: integer('key_version').notNull(),
    wrappedKey: text('wrapped_key').notNull(),
    secret: text('secret').notNull(),
    previousKeyVersion: integer('previous_key_version'),
    previousWrappedKey: text('previous_wrapped_key'),
    previousSecret: text('previous_secret'),
    previousExpiresAt: timestamp('previous_expires_at', { withTimezone: true, mode: 'date' }),
    /** The first failure since the last success: 3 days of them disable the endpoint. */
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  // What every emission asks: the user's active endpoints (a handful at most).
  (t) => [index('webhook_endpoints_active_idx').on(t.userId).where(sql`activo`)],
);

/** An event, written in the transaction of the change it reports, only when some endpoint wants it. */
export const outgoingEvents = pgTable('outgoing_events', {
  /** `msg_…` (no "."): the `webhook-id` of every delivery of it. */
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  data: jsonb('data').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * One event for one endpoint. `attempts` made so far; `queued_attempt` is the attempt a job exists
 * for (the sweep gives a job to rows where it differs, in the transaction that records it). While an
 * attempt runs, `next_attempt_at` is the end of its lease: past it, a dead worker's attempt is redone.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => outgoingEvents.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    queuedAttempt: integer('queued_attempt'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    firstFailedAt: timestamp('first_failed_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_pending_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);
