import { listPlans } from '@folio/billing';
import { z } from 'zod';
import { AvailablePlan, BillingPeriod, CheckoutInput, Subscription } from '../schemas/subscription';
import { openPortal, startCheckout } from '../services/billing/stripe-sessions';
import { currentSubscription } from '../services/billing/subscription';
import { authedProcedure, router } from '../trpc';

export const subscriptionRouter = router({
  plans: authedProcedure
    .input(z.object({ billing: BillingPeriod.default('monthly') }))
    .output(z.object({ plans: z.array(AvailablePlan), billing: BillingPeriod }))
    .query(({ ctx, input }) => ({
      plans: listPlans(input.billing, ctx.billing.monthlyPrices),
      billing: input.billing,
    })),

  current: authedProcedure
    .input(z.object({}).optional())
    .output(Subscription)
    .query(({ ctx }) => currentSubscription(ctx, ctx.user.id)),

  createCheckout: authedProcedure
    .meta({ sessionOnly: true })
    .input(CheckoutInput)
    .output(z.object({ sessionId: z.string(), url: z.string(), message: z.string() }))
    .mutation(({ ctx, input }) => startCheckout(ctx, ctx.user, input)),

  createPortalSession: authedProcedure
    .meta({ sessionOnly: true })
    .input(z.object({}).optional())
    .output(z.object({ url: z.string(), message: z.string() }))
    .mutation(({ ctx }) => openPortal(ctx, ctx.user.id)),
});
