/** Plan limits exactly as the contract's plans table (spec §2.8–2.9); null means unlimited. */
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
  PRO: {
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
  },
  // Sold by contract: no numeric limits (DESIGN §4).
  ENTERPRISE: {
    profiles: null,
    invoicesPerMonth: null,
    expensesPerMonth: null,
    exportPDF: true,
    exportExcel: true,
    reports: 'advanced',
    support: 'priority',
    apiAccess: true,
    satBasicSearchesPerMonth: null,
    satAISearchesPerMonth: null,
    satMaxResults: null,
    satHasAIExplanations: true,
    satHasHistory: true,
    satHasFavorites: true,
    satHasAlerts: true,
  },
};
