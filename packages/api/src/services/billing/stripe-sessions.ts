import { createCheckoutSession, createPortalSession } from '@folio/billing';
import type { z } from 'zod';
import type { Context } from '../../context';
import type { CheckoutInput } from '../../schemas/subscription';
import { audit } from '../audit';
import { requireVerifiedEmail } from '../auth/require-verified-email';
import { asAppErrors } from './errors';

interface User {
  id: string;
  email: string;
  nombre: string | null;
  apellido: string | null;
  emailVerified: boolean;
}

/** POST /api/subscription/create-checkout: a hosted checkout for BASIC or PRO (rules in @folio/billing). */
export async function startCheckout(
  ctx: Context,
  user: User,
  input: z.infer<typeof CheckoutInput>,
): Promise<{ sessionId: string; url: string; message: string }> {
  requireVerifiedEmail(user);
  const session = await asAppErrors(ctx, () =>
    createCheckoutSession(
      ctx,
      {
        id: user.id,
        email: user.email,
        name: [user.nombre, user.apellido].filter(Boolean).join(' ') || null,
      },
      { ...input, idempotencyKey: ctx.req.idempotencyKey },
    ),
  );
  // A retry with the same Idempotency-Key: the same session, answered as the first time (and
  // audited once, the first time).
  if (session.replayed) ctx.req.resHeaders.set('Idempotent-Replayed', 'true');
  else
    await audit(ctx, 'subscription.checkout', user.id, {
      entity: 'checkout_session',
      entityId: session.sessionId,
      data: {
        plan: input.plan,
        billing: input.billing,
        trialDays: session.trialDays,
        promotionCode: session.promotionCode,
      },
    });
  const trial = session.trialDays ? ` with a ${session.trialDays}-day free trial` : '';
  return {
    sessionId: session.sessionId,
    url: session.url,
    message: `Checkout session created for ${input.plan} (${input.billing})${trial}; redirect the user to url`,
  };
}

/** POST /api/subscription/create-portal-session: the hosted customer portal of a paid subscription. */
export async function openPortal(ctx: Context, userId: string): Promise<{ url: string; message: string }> {
  const { url } = await asAppErrors(ctx, () => createPortalSession(ctx, userId));
  await audit(ctx, 'subscription.portal', userId);
  return { url, message: 'Customer portal session created; redirect the user to url' };
}
