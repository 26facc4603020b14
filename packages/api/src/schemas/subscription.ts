import { BILLING_PERIODS, CHECKOUT_PLANS, PLAN_IDS, PLAN_LIMITS } from '@folio/billing';
import { z } from 'zod';
import { Timestamp } from './formats';

const BASIC_LIMITS = PLAN_LIMITS.BASIC;

export const PlanId = z.enum(PLAN_IDS);
export const BillingPeriod = z.enum(BILLING_PERIODS, { error: 'must be monthly or annual' });

/** PlanLimits of docs/contract.md#resources. */
export const PlanLimits = z
  .object({
    profiles: z.number().nullable(),
    invoicesPerMonth: z.number().nullable(),
    expensesPerMonth: z.number().nullable(),
    exportPDF: z.boolean(),
    exportExcel: z.boolean(),
    reports: z.enum(['basic', 'complete', 'advanced']),
    support: z.enum(['none', 'email', 'priority']),
    apiAccess: z.boolean(),
    satBasicSearchesPerMonth: z.number().nullable(),
    satAISearchesPerMonth: z.number().nullable(),
    satMaxResults: z.number().nullable(),
    satHasAIExplanations: z.boolean().optional(),
    satHasHistory: z.boolean().optional(),
    satHasFavorites: z.boolean().optional(),
    satHasAlerts: z.boolean().optional(),
  })
  .meta({ id: 'PlanLimits', example: BASIC_LIMITS });

/** AvailablePlan of docs/contract.md#resources. */
export const AvailablePlan = z
  .object({
    id: PlanId,
    name: z.string(),
    price: z.number(),
    originalPrice: z.number().nullable(),
    billing: BillingPeriod,
    limits: PlanLimits,
    trialDays: z.number().nullable(),
  })
  .meta({
    id: 'AvailablePlan',
    example: {
      id: 'BASIC',
      name: 'Basic',
      price: 2990,
      originalPrice: 3588,
      billing: 'annual',
      limits: BASIC_LIMITS,
      trialDays: 14,
    },
  });

/** Subscription of docs/contract.md#resources. */
export const Subscription = z
  .object({
    plan: PlanId,
    status: z.enum(['ACTIVE', 'CANCELLED', 'EXPIRED', 'PAST_DUE', 'UNPAID', 'TRIALING']),
    planPrice: z.number(),
    currentPeriodStart: Timestamp.nullable(),
    currentPeriodEnd: Timestamp.nullable(),
    cancelAtPeriodEnd: z.boolean(),
    stripeCustomerId: z.string().nullable(),
    stripeSubscriptionId: z.string().nullable(),
    limits: PlanLimits,
  })
  .meta({
    id: 'Subscription',
    example: {
      plan: 'BASIC',
      status: 'TRIALING',
      planPrice: 299,
      currentPeriodStart: '2026-05-01T17:04:05.000Z',
      currentPeriodEnd: '2026-05-15T17:04:05.000Z',
      cancelAtPeriodEnd: false,
      stripeCustomerId: 'cus_Q1w2E3r4T5y6U7',
      stripeSubscriptionId: 'sub_1PqRsTuVwXyZ0123',
      limits: BASIC_LIMITS,
    },
  });

export const CheckoutInput = z
  .object({
    plan: z.enum(CHECKOUT_PLANS, { error: 'must be BASIC or PRO (ENTERPRISE is sold by contract)' }),
    promotionCode: z
      .string()
      .trim()
      .min(3)
      .max(50)
      .transform((s) => s.toUpperCase())
      .pipe(z.string().regex(/^[A-Z0-9]+$/, 'only letters and digits'))
      .optional(),
    billing: BillingPeriod.default('monthly'),
  })
  .meta({ example: { plan: 'PRO', billing: 'annual', promotionCode: 'LANZAMIENTO' } });
