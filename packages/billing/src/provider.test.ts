import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingProvider } from './provider';

describe('STRIPE_API_URL: the real SDK talks to another API host', () => {
  let server: Server;
  let origin: string;
  const seen: { method?: string; url?: string; headers: IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    // A stand-in Stripe API on loopback that records what reaches it and lists one price.
    server = createServer((req, res) => {
      seen.push({ method: req.method, url: req.url, headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_test' });
      res.end(
        JSON.stringify({
          object: 'list',
          url: '/v1/prices',
          has_more: false,
          data: [{ id: 'price_from_other_host', object: 'price', active: true, lookup_key: 'basic_monthly' }],
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('with a secret key, the requests go to apiUrl (plain http, its port) with that key', async () => {
    const provider = createBillingProvider({
      appUrl: 'http://localhost:3000',
      secretKey: 'sk_test_other_host',
      webhookSecret: 'whsec_other_host',
      apiUrl: origin,
    });
    expect(provider.kind).toBe('stripe');
    expect(await provider.priceId('BASIC', 'monthly')).toBe('price_from_other_host');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.url).toMatch(/^\/v1\/prices\?/);
    expect(seen[0]!.headers.host).toBe(new URL(origin).host);
    expect(seen[0]!.headers.authorization).toBe('Bearer sk_test_other_host');
  });

  it('refuses an apiUrl that is not an http(s) origin (the SDK has no base path)', () => {
    const make = (apiUrl: string) => () =>
      createBillingProvider({
        appUrl: 'http://localhost:3000',
        secretKey: 'sk_test_other_host',
        webhookSecret: 'whsec_other_host',
        apiUrl,
      });
    expect(make(`${origin}/stripe`)).toThrow(/origin only/);
    expect(make('ftp://127.0.0.1:21')).toThrow(/http\(s\)/);
    expect(make(`${origin}/`)).not.toThrow();
  });
});

describe('the offline provider stays out of the main entry', () => {
  it('is not exported by @folio/billing (it lives in @folio/billing-dev)', async () => {
    expect(Object.keys(await import('./index'))).not.toContain('FakeStripe');
  });

  it('without Stripe keys, must be passed in', () => {
    expect(() => createBillingProvider({ appUrl: 'http://localhost:3000' })).toThrow(/@folio\/billing-dev/);
  });
});
