import type { ErrorBody } from '@folio/api';
import { handleStripeWebhook } from '@folio/billing';
import type { FileHandler } from './file-handler';

export const STRIPE_WEBHOOK_PATH = '/api/webhooks/stripe';

/**
 * The payment provider's webhook: the exact bytes and the Stripe-Signature header go to
 * @folio/billing, which verifies, dedupes and applies; this route only carries them.
 */
export const stripeWebhook: FileHandler = {
  async run(c, { deps }) {
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const answer = await handleStripeWebhook(
      { db: deps.db, billing: deps.billing, log: c.get('log') },
      raw,
      c.req.header('stripe-signature'),
    );
    // An error answer is the API's error body: its code one of ERROR_CODES (TypeScript checks).
    return c.json(answer.body satisfies ErrorBody | { received: true }, answer.status);
  },
};
