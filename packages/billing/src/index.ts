export {
  type Entitlements,
  effectivePlan,
  entitlementsOf,
  getEntitlements,
  limitByState,
  type StateLimit,
  SUBSCRIPTION_STATUSES,
  type SubscriptionState,
  type SubscriptionStatus,
} from './entitlements';
export * from './plans';
export {
  type BillingProvider,
  type BillingProviderOptions,
  createBillingProvider,
  type OfflineStripe,
  type OfflineStripeOptions,
  type PlanPrice,
  PRICE_KEYS,
  type PriceKey,
} from './provider';
export { nextQuotaReset, QUOTA_TIME_ZONE, quotaPeriod } from './quota-period';
export { displayedPlan, LIVE_STATUSES, SUBSCRIBED_STATUSES, statusFromProvider } from './status';
export {
  BillingError,
  type BillingErrorKind,
  type BillingUser,
  type CheckoutInput,
  type CheckoutReturn,
  type CheckoutSession,
  createCheckoutSession,
  createPortalSession,
  ensureCustomer,
  reconcileCheckoutReturn,
} from './stripe-sessions';
export {
  applyProviderSubscription,
  type BillingDeps,
  type BillingLog,
  type ProviderSubscriptionState,
  readProviderSubscription,
  type SyncOutcome,
  type SyncSource,
  syncSubscription,
} from './sync';
export { type SubscriptionView, subscriptionView } from './view';
export {
  HANDLED_EVENTS,
  handleStripeWebhook,
  subscriptionIdOf,
  type WebhookAnswer,
  type WebhookOutcome,
} from './webhook';
