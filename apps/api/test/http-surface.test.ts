import type { AppRouter } from '@folio/api';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, request, signUp, startTestApp, type TestApp, trpcClient } from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('cross-cutting HTTP rules', () => {
  it('reports health with the database kind', async () => {
    const res = await t.app.request('/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', db: t.handle.kind });
  });

  it('answers 503 on /health when the database does not respond', async () => {
    const { createApp } = await import('../src/app');
    const broken = createApp({
      ...t.deps,
      ping: () => Promise.reject(new Error('connection refused')),
    });
    const res = await broken.request('/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'unavailable', db: t.handle.kind });
  });

  it('answers 503 on /health when the database accepts but never answers', async () => {
    const { createApp } = await import('../src/app');
    const hung = createApp({ ...t.deps, ping: () => new Promise<void>(() => {}) });
    const res = await hung.request('/health');
    expect(res.status).toBe(503);
  });

  it('puts an X-Request-Id on every response, echoing a sane incoming one', async () => {
    const generated = await t.app.request('/api/nope');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.app.request('/health', { headers: { 'x-request-id': 'client-req-12345' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-req-12345');
    const replaced = await t.app.request('/health', {
      headers: { 'x-request-id': 'bad id;drop // '.repeat(10) },
    });
    // Replaced by a generated one (a UUID may itself hold the hex letters 'bad': its shape is the test).
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const failed = await request(t, 'POST', '/api/auth/login', { body: {} });
    expect(failed.headers.get('x-request-id')).toBeTruthy();
  });

  it('refuses a JSON body over 1 MB with 413 in the error shape', async () => {
    const huge = JSON.stringify({ email: 'a@b.mx', password: 'x'.repeat(1024 * 1024) });
    const res = await request(t, 'POST', '/api/auth/login', { body: huge });
    await expectError(res, 413, 'Payload Too Large');
  });

  it('answers routes outside /api with 404 in the error shape too', async () => {
    await expectError(await t.app.request('/nothing'), 404, 'Not Found');
  });

  it('serves the OpenAPI 3.1 document with real success codes, ErrorBody errors and the auth schemes (API keys outside session-only routes)', async () => {
    const doc = await (await t.app.request('/api/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    const register = doc.paths['/auth/register'].post;
    expect(Object.keys(register.responses).sort()).toEqual(['201', '400', '415', '429', '500']);
    expect(register.responses['400'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ErrorBody',
    );
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      cookieAuth: { type: 'apiKey', in: 'cookie', name: 'access_token' },
      apiKeyAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'folio_…' },
    });
    const session = [{ bearerAuth: [] }, { cookieAuth: [] }];
    expect(doc.paths['/auth/me'].get.security).toEqual([...session, { apiKeyAuth: [] }]);
    expect(doc.paths['/profiles/{profileId}/cfdi'].post.security).toEqual([...session, { apiKeyAuth: [] }]);
    expect(doc.paths['/api-keys'].post.security).toEqual(session);
    expect(doc.paths['/profiles/{profileId}'].delete.security).toEqual(session);
    expect(Object.keys(doc.components.schemas).filter((k) => k.startsWith('error.'))).toEqual([]);
  });

  it('serves the docs page with its script from us, not from a CDN', async () => {
    const page = await (await t.app.request('/api/docs')).text();
    expect(page).toContain('/api/docs/scalar.js');
    expect(page).not.toMatch(/cdn\.jsdelivr|unpkg\.com/);
    const script = await t.app.request('/api/docs/scalar.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
  });

  it('names the absolute APP_URL + /api as the server in the served document', async () => {
    const { createApp } = await import('../src/app');
    const deployed = createApp({ ...t.deps, config: { ...t.deps.config, appUrl: 'https://folio.test' } });
    const doc = await (await deployed.request('/api/openapi.json')).json();
    expect(doc.servers).toEqual([{ url: 'https://folio.test/api' }]);
  });

  it('turns off the docs page hosted-service buttons (Ask AI, MCP, developer tools with Deploy)', async () => {
    const page = await (await t.app.request('/api/docs')).text();
    const config = JSON.parse(page.match(/createApiReference\('#app', (\{.*?\})\)/s)?.[1] ?? 'null');
    expect(config).toMatchObject({
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      favicon: '/api/docs/favicon.svg',
    });
  });

  it('serves a favicon for the docs page and for /favicon.ico', async () => {
    for (const path of ['/favicon.ico', '/api/docs/favicon.svg']) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml');
      expect(await res.text()).toContain('<svg');
    }
  });

  it('lists the outbox on /__dev/mail.json (filtered by recipient) and /__dev/mail', async () => {
    const user = await signUp(t);
    const res = await t.app.request(`/__dev/mail.json?to=${encodeURIComponent(user.email.toUpperCase())}`);
    const { data } = await res.json();
    expect(data).toHaveLength(1);
    expect(Object.keys(data[0]).sort()).toEqual(['created_at', 'html', 'id', 'subject', 'text', 'to']);
    const page = await (await t.app.request('/__dev/mail')).text();
    expect(page).toContain('Confirma tu correo en Folio');
  });

  it('does not mount /__dev when dev surfaces are off', async () => {
    const { createApp } = await import('../src/app');
    const prod = createApp({ ...t.deps, devSurfaces: false });
    await expectError(await prod.request('/__dev/mail.json'), 404, 'Not Found');
  });
});

describe('/trpc for TypeScript clients', () => {
  const client = (token?: string) => trpcClient(t, token);

  it('serves the same procedures with superjson and batching', async () => {
    const user = await signUp(t);
    const [me, again] = await Promise.all([
      client(user.token).auth.me.query(),
      client(user.token).auth.me.query(),
    ]);
    expect(me.user.id).toBe(user.id);
    expect(again.user.email).toBe(user.email);
  });

  it('reports errors with tRPC codes and without internals', async () => {
    const err = await client()
      .auth.me.query()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    expect((err as TRPCClientError<AppRouter>).data?.code).toBe('UNAUTHORIZED');
    expect((err as TRPCClientError<AppRouter>).data?.httpStatus).toBe(401);
  });
});
