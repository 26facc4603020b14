import { listPlans } from '@folio/billing';
import { z } from 'zod';
import { AvailablePlan, BillingPeriod, CheckoutInput, Subscription } from '../schemas/subscription';
import { openPortal, startCheckout } from '../services/billing/stripe-sessions';
import { currentSubscription } from '../services/billing/subscription';
import { authedProcedure, router } from '../trpc';

const tags = ['subscription'];

export const subscriptionRouter = router({
  plans: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/subscription/plans',
        tags,
        summary: 'Plans with their limits and prices for a billing period',
        description:
          'FREE, BASIC, PRO and ENTERPRISE with their limits and the price for the chosen billing period (monthly or annual).',
        errorResponses: [400, 401, 500],
      },
    })
    .input(z.object({ billing: BillingPeriod.default('monthly') }))
    .output(z.object({ plans: z.array(AvailablePlan), billing: BillingPeriod }))
    .query(({ ctx, input }) => ({
      plans: listPlans(input.billing, ctx.billing.monthlyPrices),
      billing: input.billing,
    })),

  current: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/subscription',
        tags,
        summary: 'Your subscription as last reported by the payment provider (FREE if you never paid)',
        description:
          "The caller's plan, status and current period as last reported by the payment provider; FREE and ACTIVE for a user who never paid.",
        errorResponses: [401, 500],
      },
    })
    .input(z.object({}).optional())
    .output(Subscription)
    .query(({ ctx }) => currentSubscription(ctx, ctx.user.id)),

  createCheckout: authedProcedure
    .meta({
      sessionOnly: true,
      openapi: {
        method: 'POST',
        path: '/subscription/create-checkout',
        tags,
        summary: 'Start a hosted checkout for BASIC or PRO (14-day trial once per user; verified email only)',
        description:
          'Creates a hosted checkout session for BASIC or PRO and answers its URL; the plan changes when the provider confirms the payment (webhook). ENTERPRISE is sold by contract (400); an unverified email gets 403; a user already on that plan gets 409.',
        errorResponses: [400, 401, 403, 409, 500],
      },
      rest: {
        successStatus: 201,
        idempotencyKey: true,
      },
    })
    .input(CheckoutInput)
    .output(z.object({ sessionId: z.string(), url: z.string(), message: z.string() }))
    .mutation(({ ctx, input }) => startCheckout(ctx, ctx.user, input)),

  createPortalSession: authedProcedure
    .meta({
      sessionOnly: true,
      openapi: {
        method: 'POST',
        path: '/subscription/create-portal-session',
        tags,
        summary: 'Open the hosted customer portal of your paid subscription',
        description:
          "Creates a session of the provider's hosted customer portal (cancel, switch plan, payment method) and answers its URL. Without a paid subscription: 403; without a provider customer: 404.",
        errorResponses: [401, 403, 404, 500],
      },
      rest: { successStatus: 201 },
    })
    .input(z.object({}).optional())
    .output(z.object({ url: z.string(), message: z.string() }))
    .mutation(({ ctx }) => openPortal(ctx, ctx.user.id)),
});
