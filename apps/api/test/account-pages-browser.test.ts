import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  mailedToken,
  request,
  signUp,
  startTestApp,
  type TestApp,
  verificationTokenFor,
} from './harness';
import { listen } from './listen';
import { hasChromium, launchChromium } from './support/chromium';

/** The links in Folio's mails, clicked in a real browser. Without Chromium these report as skipped. */
describe.skipIf(!hasChromium)('account links in Chromium', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let browser: BrowserContext;

  beforeAll(async () => {
    t = await startTestApp();
    server = await listen(t);
    browser = await launchChromium();
    // Nothing may leave the machine.
    await browser.route(
      (url) => !url.href.startsWith(server.url),
      (route) => route.abort(),
    );
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await t?.close();
  });

  it('the verification link shows "Tu correo quedó verificado", then "ya estaba verificado"; the way on leads to Folio', {
    timeout: 60_000,
  }, async () => {
    const u = await signUp(t);
    const link = `${server.url}/api/auth/verify-email?token=${await verificationTokenFor(t, u.email)}`;
    const page = await browser.newPage();
    const first = await page.goto(link);
    expect(first?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('Tu correo quedó verificado');
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    const me = await request(t, 'GET', '/api/auth/me', { headers: bearer(u.token) });
    expect((await me.json()).user.email_verified).toBe(true);

    await page.goto(link);
    expect(await page.locator('h1').textContent()).toBe('Tu correo ya estaba verificado');
    await Promise.all([
      page.waitForURL(`${server.url}/api/docs`, { waitUntil: 'commit' }),
      page.click('#onward'),
    ]);
    await page.close();
  });

  it('the reset link opens a form; submitting it changes the password and says so in Spanish', {
    timeout: 60_000,
  }, async () => {
    const u = await signUp(t);
    await request(t, 'POST', '/api/auth/forgot-password', { body: { email: u.email } });
    const token = await mailedToken(t, u.email, 'reset-password');
    const page = await browser.newPage();
    await page.goto(`${server.url}/auth/reset-password?token=${token}`);
    await page.fill('#password', 'chosen-in-browser');
    await page.click('button[type=submit]');
    await expect.poll(() => page.locator('#result').textContent()).toMatch(/^Listo: tu contraseña cambió/);
    const login = await request(t, 'POST', '/api/auth/login', {
      body: { email: u.email, password: 'chosen-in-browser' },
    });
    expect(login.status).toBe(200);
    await page.close();
  });
});
