import { boolean, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps, users } from './users';

/** The user's paid subscription as last synced from the payment provider; no row means FREE. */
export const subscriptions = pgTable('subscriptions', {
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
  ...timestamps,
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
