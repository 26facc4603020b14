import { createBillingProvider } from '@folio/billing';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { FakeStripe } from './fake-stripe';
import { parseForm } from './form';

describe('the offline provider speaks the Stripe REST subset we use', () => {
  const provider = () => createBillingProvider({ appUrl: 'http://localhost:3000/', offline: FakeStripe });

  it('decodes Stripe form encoding with nested objects and arrays', () => {
    expect(
      parseForm(
        'mode=subscription&line_items[0][price]=p&line_items[0][quantity]=1&metadata[userId]=u&lookup_keys[0]=a&lookup_keys[1]=b',
      ),
    ).toEqual({
      mode: 'subscription',
      line_items: [{ price: 'p', quantity: '1' }],
      metadata: { userId: 'u' },
      lookup_keys: ['a', 'b'],
    });
  });

  it('answers the real SDK: customers honour Idempotency-Key, prices by lookup key', async () => {
    const { stripe, dev, priceId } = provider();
    const a = await stripe.customers.create({ email: 'a@x.mx' }, { idempotencyKey: 'k' });
    const b = await stripe.customers.create({ email: 'a@x.mx' }, { idempotencyKey: 'k' });
    expect(b.id).toBe(a.id);
    expect(dev!.customers.size).toBe(1);
    expect(await priceId('PRO', 'annual')).toBe('price_dev_pro_annual');
    const { data } = await stripe.prices.list({ lookup_keys: ['basic_monthly'] });
    expect(data.map((p) => p.unit_amount)).toEqual([29900]);
  });

  it('refuses an Idempotency-Key reused with other parameters as Stripe does (idempotency_error)', async () => {
    const { stripe, dev } = provider();
    await stripe.customers.create({ email: 'a@x.mx', name: 'Ana' }, { idempotencyKey: 'k' });
    const again = await stripe.customers.create({ name: 'Ana', email: 'a@x.mx' }, { idempotencyKey: 'k' });
    // With the fetch HTTP client the raw response's headers are a Headers.
    expect((again.lastResponse.headers as unknown as Headers).get('idempotent-replayed')).toBe('true');
    const err = await stripe.customers
      .create({ email: 'b@x.mx', name: 'Ana' }, { idempotencyKey: 'k' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(err).toMatchObject({ statusCode: 400, type: 'StripeIdempotencyError' });
    expect(dev!.customers.size).toBe(1);
  });

  it('reports a missing customer as resource_missing, 404', async () => {
    const { stripe } = provider();
    const err = await stripe.customers.retrieve('cus_nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(err).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('refuses every endpoint it does not implement with 404 "unsupported"', async () => {
    const { stripe } = provider();
    const err = await stripe.invoices.list().catch((e: unknown) => e);
    expect(err).toMatchObject({ statusCode: 404, code: 'unsupported' });
  });

  it('finds promotion codes case-insensitively and only active ones when asked', async () => {
    const { stripe } = provider();
    expect((await stripe.promotionCodes.list({ code: 'bienvenida20', active: true })).data).toHaveLength(1);
    expect((await stripe.promotionCodes.list({ code: 'EXPIRADO', active: true })).data).toHaveLength(0);
    const [expired] = (await stripe.promotionCodes.list({ code: 'EXPIRADO' })).data;
    expect(expired).toMatchObject({ active: false, promotion: { coupon: { percent_off: 50 } } });
  });

  it('creates a 24-hour checkout session whose completion starts a trialing subscription', async () => {
    const { stripe, dev } = provider();
    const customer = await stripe.customers.create({});
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: 'price_dev_basic_monthly', quantity: 1 }],
      subscription_data: { trial_period_days: 14 },
      success_url: 'http://localhost:3000/ok?session_id={CHECKOUT_SESSION_ID}',
    });
    expect(session.url).toBe(`http://localhost:3000/__dev/billing/checkout/${session.id}`);
    expect(session.expires_at - session.created).toBe(86_400);
    const { subscription } = await dev!.completeCheckout(session.id);
    const sub = await stripe.subscriptions.retrieve(subscription.id);
    expect(sub.status).toBe('trialing');
    const item = sub.items.data[0]!;
    expect(item.current_period_end - item.current_period_start).toBe(14 * 86_400);
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('complete');
  });

  it('signs its events so the SDK verifies them with the same secret', async () => {
    const { stripe, dev, webhookSecret } = provider();
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'x', data: { object: {} } });
    const event = await stripe.webhooks.constructEventAsync(payload, dev!.sign(payload), webhookSecret);
    expect(event.id).toBe('evt_1');
  });

  it('needs the webhook secret with a real Stripe key', () => {
    expect(() => createBillingProvider({ appUrl: 'http://x', secretKey: 'sk_test_1' })).toThrow(
      /WEBHOOK_SECRET/,
    );
    const real = createBillingProvider({
      appUrl: 'http://x',
      secretKey: 'sk_test_1',
      webhookSecret: 'whsec_1',
    });
    expect(real).toMatchObject({ kind: 'stripe', dev: undefined, devPages: false });
  });
});
