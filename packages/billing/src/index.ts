export { type Entitlements, effectivePlan, getEntitlements, type SubscriptionStatus } from './entitlements';
export * from './plans';
export { nextQuotaReset, QUOTA_TIME_ZONE, quotaPeriod } from './quota-period';
