// @folio/billing-dev: the offline Stripe that development and tests run against. A package of its
// own so production code never loads it: the server imports it dynamically, and only when no Stripe
// keys are configured, then passes it to createBillingProvider({ offline: FakeStripe }).
export { type Delivery, FakeStripe, type FakeStripeOptions } from './fake-stripe';
