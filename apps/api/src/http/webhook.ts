import type { ErrorBody } from '@folio/api';
import { handleStripeWebhook } from '@folio/billing';
import type { Hono } from 'hono';
import type { AppDeps, AppEnv } from './types';

export const STRIPE_WEBHOOK_PATH = '/api/webhooks/stripe';

/**
 * The payment provider's webhook: the exact bytes and the Stripe-Signature header go to
 * @folio/billing, which verifies, dedupes and applies; this route only carries them.
 */
export function mountStripeWebhook(app: Hono<AppEnv>, deps: AppDeps): void {
  app.post(STRIPE_WEBHOOK_PATH, async (c) => {
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const answer = await handleStripeWebhook(
      { db: deps.db, billing: deps.billing, log: c.get('log') },
      raw,
      c.req.header('stripe-signature'),
    );
    // An error answer is the API's error body: its code one of ERROR_CODES (TypeScript checks).
    return c.json(answer.body satisfies ErrorBody | { received: true }, answer.status);
  });
}
