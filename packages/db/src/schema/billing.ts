import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps, users } from './users';

/** The user's paid subscription as last synced from the payment provider; no row means FREE. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan', { enum: ['FREE', 'BASIC', 'PRO', 'ENTERPRISE'] }).notNull(),
    status: text('status', {
      enum: ['ACTIVE', 'CANCELLED', 'EXPIRED', 'PAST_DUE', 'UNPAID', 'TRIALING'],
    }).notNull(),
    billing: text('billing', { enum: ['monthly', 'annual'] }),
    providerStatus: text('provider_status'),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true, mode: 'date' }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true, mode: 'date' }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    trialUsedAt: timestamp('trial_used_at', { withTimezone: true, mode: 'date' }),
    /** When the provider created the subscription: a newer live subscription replaces an older one. */
    providerCreatedAt: timestamp('provider_created_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [index('subscriptions_stripe_subscription_idx').on(t.stripeSubscriptionId)],
);

/**
 * The provider customer of each user, created once (idempotency key per user) and stored before the
 * first checkout; a user who never paid has a row here but none in `subscriptions`.
 */
export const billingCustomers = pgTable(
  'billing_customers',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    stripeCustomerId: text('stripe_customer_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('billing_customers_stripe_customer_uq').on(t.stripeCustomerId)],
);

/** Provider webhook events already applied, recorded in the transaction of their effect. */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Monthly plan quotas (calendar month in America/Mexico_City), counted atomically. */
export const usageCounters = pgTable(
  'usage_counters',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `YYYY-MM` of the month in Mexico City. */
    period: text('period').notNull(),
    kind: text('kind').notNull(),
    used: integer('used').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.period, t.kind] })],
);
