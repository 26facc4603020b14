import type { RouteEntry } from './entry';

const tags = ['subscription'];

/** The REST routes of plans and the subscription. */
export const subscriptionRoutes: RouteEntry[] = [
  {
    method: 'GET',
    path: '/subscription/plans',
    procedure: 'subscription.plans',
    docs: {
      tags,
      summary: 'Plans with their limits and prices for a billing period',
      description:
        'FREE, BASIC, PRO and ENTERPRISE with their limits and the price for the chosen billing period (monthly or annual).',
    },
    errors: [400, 401, 500],
  },
  {
    method: 'GET',
    path: '/subscription',
    procedure: 'subscription.current',
    docs: {
      tags,
      summary: 'Your subscription as last reported by the payment provider (FREE if you never paid)',
      description:
        "The caller's plan, status and current period as last reported by the payment provider; FREE and ACTIVE for a user who never paid.",
    },
    errors: [401, 500],
  },
  {
    method: 'POST',
    path: '/subscription/create-checkout',
    procedure: 'subscription.createCheckout',
    docs: {
      tags,
      summary: 'Start a hosted checkout for BASIC or PRO (14-day trial once per user; verified email only)',
      description:
        'Creates a hosted checkout session for BASIC or PRO and answers its URL; the plan changes when the provider confirms the payment (webhook). ENTERPRISE is sold by contract (400); an unverified email gets 403; a user already on that plan gets 409.',
    },
    errors: [400, 401, 403, 409, 500],
    rest: {
      successStatus: 201,
      idempotencyKey: true,
    },
  },
  {
    method: 'POST',
    path: '/subscription/create-portal-session',
    procedure: 'subscription.createPortalSession',
    docs: {
      tags,
      summary: 'Open the hosted customer portal of your paid subscription',
      description:
        "Creates a session of the provider's hosted customer portal (cancel, switch plan, payment method) and answers its URL. Without a paid subscription: 403; without a provider customer: 404.",
    },
    errors: [401, 403, 404, 500],
    rest: { successStatus: 201 },
  },
];
