/** Plan limits exactly as the contract's plans table (docs/contract.md#plans); null means unlimited. */
export type PlanId = 'FREE' | 'BASIC' | 'PRO' | 'ENTERPRISE';

export interface PlanLimits {
  profiles: number | null;
  invoicesPerMonth: number | null;
  expensesPerMonth: number | null;
  exportPDF: boolean;
  exportExcel: boolean;
  reports: 'basic' | 'complete' | 'advanced';
  support: 'none' | 'email' | 'priority';
  apiAccess: boolean;
  satBasicSearchesPerMonth: number | null;
  satAISearchesPerMonth: number | null;
  satMaxResults: number | null;
  satHasAIExplanations?: boolean;
  satHasHistory?: boolean;
  satHasFavorites?: boolean;
  satHasAlerts?: boolean;
}

const PRO: PlanLimits = {
  profiles: null,
  invoicesPerMonth: null,
  expensesPerMonth: null,
  exportPDF: true,
  exportExcel: true,
  reports: 'advanced',
  support: 'priority',
  apiAccess: true,
  satBasicSearchesPerMonth: null,
  satAISearchesPerMonth: 500,
  satMaxResults: null,
  satHasAIExplanations: true,
  satHasHistory: true,
  satHasFavorites: true,
  satHasAlerts: true,
};

export const PLAN_LIMITS: Record<PlanId, PlanLimits> = {
  FREE: {
    profiles: 1,
    invoicesPerMonth: 50,
    expensesPerMonth: 50,
    exportPDF: false,
    exportExcel: false,
    reports: 'basic',
    support: 'none',
    apiAccess: false,
    satBasicSearchesPerMonth: 10,
    satAISearchesPerMonth: 0,
    satMaxResults: 10,
  },
  BASIC: {
    profiles: 3,
    invoicesPerMonth: 200,
    expensesPerMonth: 200,
    exportPDF: true,
    exportExcel: true,
    reports: 'complete',
    support: 'email',
    apiAccess: true,
    satBasicSearchesPerMonth: 100,
    satAISearchesPerMonth: 50,
    satMaxResults: 50,
  },
  PRO,
  // Sold by contract: PRO without its one numeric limit (docs/design.md#plans-and-quotas).
  ENTERPRISE: { ...PRO, satAISearchesPerMonth: null },
};

export const PLAN_IDS = ['FREE', 'BASIC', 'PRO', 'ENTERPRISE'] as const satisfies readonly PlanId[];

/** Plans sold through self-service checkout; ENTERPRISE is sold by contract (docs/design.md#plans-and-quotas). */
export const CHECKOUT_PLANS = ['BASIC', 'PRO'] as const satisfies readonly PlanId[];
export type CheckoutPlan = (typeof CHECKOUT_PLANS)[number];

export const BILLING_PERIODS = ['monthly', 'annual'] as const;
export type Billing = (typeof BILLING_PERIODS)[number];

/** Trial offered once per user on BASIC and PRO (docs/contract.md#limits). */
export const TRIAL_DAYS = 14;

/** Monthly price of each plan in the billing currency (MXN); configurable, these are the defaults. */
export type MonthlyPrices = Record<PlanId, number>;
export const DEFAULT_MONTHLY_PRICES: MonthlyPrices = { FREE: 0, BASIC: 299, PRO: 599, ENTERPRISE: 1999 };
export const CURRENCY = 'MXN';

/** An annual subscription costs ten months; `originalPrice` is what twelve monthly payments cost. */
export const ANNUAL_MONTHS_CHARGED = 10;

const PLAN_NAMES: Record<PlanId, string> = {
  FREE: 'Free',
  BASIC: 'Basic',
  PRO: 'Pro',
  ENTERPRISE: 'Enterprise',
};

/** AvailablePlan of docs/contract.md#resources. */
export interface AvailablePlan {
  id: PlanId;
  name: string;
  price: number;
  originalPrice: number | null;
  billing: Billing;
  limits: PlanLimits;
  trialDays: number | null;
}

export function priceFor(
  plan: PlanId,
  billing: Billing,
  prices: MonthlyPrices = DEFAULT_MONTHLY_PRICES,
): number {
  return billing === 'annual' ? prices[plan] * ANNUAL_MONTHS_CHARGED : prices[plan];
}

/** The plans listing (GET /subscription/plans, docs/contract.md#routes) for one billing period. */
export function listPlans(billing: Billing, prices: MonthlyPrices = DEFAULT_MONTHLY_PRICES): AvailablePlan[] {
  return PLAN_IDS.map((id) => ({
    id,
    name: PLAN_NAMES[id],
    price: priceFor(id, billing, prices),
    originalPrice: billing === 'annual' ? prices[id] * 12 : null,
    billing,
    limits: PLAN_LIMITS[id],
    trialDays: (CHECKOUT_PLANS as readonly PlanId[]).includes(id) ? TRIAL_DAYS : null,
  }));
}
