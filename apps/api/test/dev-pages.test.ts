import { emailOutbox } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout, devOf, portal, subscribe } from './billing-helpers';
import { signUp, signUpVerified, startTestApp, type TestApp } from './harness';

// 03:30 UTC on New Year's Day is still 31 December, 9:30 p.m., in Mexico City (UTC-6).
const NEW_YEAR_UTC = new Date('2031-01-01T03:30:00Z');
const NEW_YEAR_S = NEW_YEAR_UTC.getTime() / 1000;
const MX_NEW_YEARS_EVE = /31 de diciembre de 2030/;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const text = async (path: string, init?: RequestInit) => {
  const res = await t.app.request(path, init);
  return { status: res.status, html: await res.text(), location: res.headers.get('location') };
};
const pathOf = (url: string) => new URL(url).pathname;

describe('/__dev/mail speaks Spanish in Mexico City time', () => {
  it('shows when a message was written in Mexico City local time and its status as a Spanish word', async () => {
    const user = await signUp(t);
    await t.handle.db
      .update(emailOutbox)
      .set({ createdAt: NEW_YEAR_UTC })
      .where(eq(emailOutbox.to, user.email));
    const { html } = await text('/__dev/mail');
    const article = html.slice(html.indexOf(user.email) - 400, html.indexOf(user.email) + 400);
    expect(article).toMatch(/31 de diciembre de 2030 a las 9:30\sp\.\s?m\./);
    expect(article).toContain('pendiente');
    expect(html).not.toContain('2031-01-01T03:30');
    expect(article).not.toMatch(/·\s*pending\b/);
    expect(html).not.toMatch(/Newest first|No messages yet|\bTo\s/);
  });
});

describe('/__dev/billing pages speak Spanish in Mexico City time', () => {
  it('the checkout page shows its expiry in Mexico City time and its state in Spanish once paid', async () => {
    const u = await signUpVerified(t);
    const { sessionId, url } = await (await checkout(t, u, { plan: 'BASIC' })).json();
    devOf(t).checkoutSessions.get(sessionId)!.expires_at = NEW_YEAR_S;
    const open = await text(pathOf(url));
    expect(open.html).toMatch(MX_NEW_YEARS_EVE);
    expect(open.html).not.toContain('2031-01-01T03:30');

    await devOf(t).completeCheckout(sessionId);
    const done = await text(pathOf(url));
    expect(done.html).toContain('Esta sesión está completada.');
    expect(done.html).not.toMatch(/está complete\b/);
  });

  it('the portal shows the subscription status in Spanish and its period in Mexico City dates', async () => {
    const u = await signUpVerified(t);
    const { subscriptionId } = await subscribe(t, u, { plan: 'BASIC' });
    const item = devOf(t).subscriptions.get(subscriptionId)!.items.data[0];
    item.current_period_end = NEW_YEAR_S;
    const { url } = await (await portal(t, u)).json();
    const { html } = await text(pathOf(url));
    expect(html).toContain('id="status">en prueba<');
    expect(html).toMatch(MX_NEW_YEARS_EVE);
    expect(html).not.toContain('2031-01-01');
    expect(html).not.toMatch(/>trialing</);
  });

  it('after "Cancelar ahora" the portal shows the subscription cancelled, when, and no more actions', async () => {
    const u = await signUpVerified(t);
    await subscribe(t, u, { plan: 'PRO' });
    const { url } = await (await portal(t, u)).json();
    const cancelled = await text(`${pathOf(url)}/cancel-now`, { method: 'POST' });
    expect(cancelled.status).toBe(303);
    const { html } = await text(cancelled.location!);
    expect(html).toContain('id="status">cancelada<');
    expect(html).toMatch(/id="canceled-at">\d{1,2} de \w+ de \d{4}</);
    expect(html).toContain('La suscripción está cancelada');
    expect(html).not.toContain('id="cancel-now"');
  });
});

describe('/billing/success for a session the provider does not know', () => {
  it('says the payment session was not found (404), instead of waiting for a confirmation forever', async () => {
    for (const path of ['/billing/success?session_id=cs_nope', '/billing/success']) {
      const { status, html } = await text(path);
      expect(status, path).toBe(404);
      expect(html).toContain('No encontramos esa sesión de pago');
      expect(html).not.toContain('Estamos confirmando tu pago');
    }
  });
});
