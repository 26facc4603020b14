// @folio/billing/dev: the offline Stripe that development and tests run against. Kept out of the
// main entry so production code never loads it; the composition root passes it to
// createBillingProvider({ offline: FakeStripe }) when no Stripe keys are configured.
export { type Delivery, FakeStripe, type FakeStripeOptions } from './fake-stripe';
