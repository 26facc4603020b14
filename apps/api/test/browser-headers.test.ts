import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { createProfile, signUp, startTestApp, type TestApp, type TestUser, uploadXml } from './harness';
import { listen } from './listen';
import { hasChromium, launchChromium } from './support/chromium';

// An Addenda is free-form XML: XHTML in it is a script the browser runs if it renders the file.
const ADDENDA = `<cfdi:Addenda><html:script xmlns:html="http://www.w3.org/1999/xhtml">
  document.title = 'XSS'; new Image().src = '/xss-ran?c=' + encodeURIComponent(document.cookie);
</html:script></cfdi:Addenda>`;

describe.skipIf(!hasChromium)("the API's response headers in Chromium", () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let browser: BrowserContext;
  let u: TestUser;
  let invoiceId: string;
  let profileId: string;

  beforeAll(async () => {
    t = await startTestApp();
    // Served as the app whose APP_URL is this socket's origin (the CSRF check compares with it).
    let own: ReturnType<typeof createApp> | undefined;
    server = await listen({ ...t, app: { fetch: (req: Request) => own!.fetch(req) } } as TestApp);
    own = createApp({ ...t.deps, config: { ...t.deps.config, appUrl: server.url } });
    u = await signUp(t);
    const me = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };
    const p = await createProfile(t, u, { nombre: me.nombre, rfc: me.rfc, tipo_persona: 'MORAL' });
    profileId = p.id;
    const xml = invoiceXml({
      uuid: newUuid(),
      emisor: me,
      receptor: { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' },
      fecha: '2025-03-10T10:00:00',
      extra: ADDENDA,
    });
    const res = await uploadXml(t, u, p.id, xml);
    expect(res.status).toBe(201);
    invoiceId = (await res.json()).data.files[0].id;
    browser = await launchChromium({
      acceptDownloads: true,
    });
    // The victim is logged in: the browser holds the HttpOnly session cookie.
    await browser.addCookies([{ name: 'access_token', value: u.token, url: server.url }]);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await t?.close();
  });

  it('an XHTML script in an Addenda never runs: the XML arrives as a download, sandboxed, not sniffed', {
    timeout: 90_000,
  }, async () => {
    const page = await browser.newPage();
    const seen: string[] = [];
    page.on('request', (req) => seen.push(new URL(req.url()).pathname));
    const url = `${server.url}/api/invoices/${invoiceId}/xml`;
    const download = page.waitForEvent('download', { timeout: 30_000 });
    download.catch(() => {}); // awaited below, once the page is known not to have rendered
    const navigation = await page.goto(url, { waitUntil: 'load' }).then(
      (res) => `rendered with status ${res?.status()}`,
      (err: Error) => err.message,
    );
    // A rendered document would have run the script before 'load'.
    expect(seen, navigation).not.toContain('/xss-ran');
    expect(await page.title()).not.toBe('XSS');
    // It arrived as a file to save instead, whole.
    expect((await download).suggestedFilename()).toBe(`${invoiceId}.xml`);
    expect(await (await download).failure()).toBeNull();

    // Even opened as a page (the headers a browser sees on any path to it), scripts are sandboxed.
    const res = await page.request.get(url);
    expect(res.headers()).toMatchObject({
      'content-disposition': `attachment; filename="${invoiceId}.xml"`,
      'content-security-policy': "default-src 'none'; sandbox",
      'x-content-type-options': 'nosniff',
    });
  });
  it('under these headers a page of our own still makes cookie-authenticated writes (its Origin passes the CSRF check)', {
    timeout: 60_000,
  }, async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/health`);
    const status = await page.evaluate(async (id) => {
      const res = await fetch(`/api/profiles/${id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nombre: 'Comercial ABC, renombrada' }),
      });
      return `${res.status} ${await res.text()}`;
    }, profileId);
    expect(status).toMatch(/^200 /);
  });
});
