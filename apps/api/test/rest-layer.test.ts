import {
  AppError,
  authedProcedure,
  FILE_HANDLERS,
  publicProcedure,
  type RouteEntry,
  router,
} from '@folio/api';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fileHandlers } from '../src/http/file-handlers';
import { requestContext } from '../src/http/request-context';
import { mountRest } from '../src/http/rest';
import type { AppEnv } from '../src/http/types';
import { bearer, expectError, request, signUp, startTestApp, type TestApp } from './harness';

// A router exercising what the REST layer must do for every domain route.
const probe = router({
  search: publicProcedure
    .input(
      z.object({
        q: z.string().optional(),
        mes: z.number().int().min(1).max(12).optional(),
        año: z.number().int().optional(),
        paid: z.boolean().optional(),
      }),
    )
    .output(z.any())
    .query(({ input }) => ({ route: 'search', input })),
  byId: publicProcedure
    .input(z.object({ id: z.string().regex(/^\d{8}$/, 'id must be 8 digits') }))
    .output(z.any())
    .query(({ input }) => ({ route: 'byId', id: input.id })),
  create: publicProcedure
    .input(z.object({ name: z.string().min(1) }))
    .output(z.object({ name: z.string() }))
    .mutation(({ input }) => input),
  touch: authedProcedure
    .input(z.object({}).optional())
    .output(z.object({ userId: z.string() }))
    .mutation(({ ctx }) => ({ userId: ctx.user.id })),
  fail: publicProcedure
    .input(z.object({ kind: z.enum(['crash', 'conflict', 'quota', 'output', 'db-down']) }))
    .output(z.object({ ok: z.boolean() }))
    .query(({ input }): { ok: boolean } => {
      if (input.kind === 'conflict') throw new AppError('CONFLICT', 'already there');
      if (input.kind === 'quota') throw new AppError('TOO_MANY_REQUESTS', 'quota used up', 42.2);
      if (input.kind === 'output') return { ok: 'yes' } as never;
      if (input.kind === 'db-down')
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      throw new Error('database password is hunter2');
    }),
});

// Its route table, declared in an order the dispatcher must not depend on.
const docs = { tags: [], summary: '', description: '' };
const probeRoutes: RouteEntry<keyof typeof probe._def.record>[] = [
  { method: 'GET', path: '/things/{id}', procedure: 'byId', protect: false, docs, errors: [] },
  { method: 'GET', path: '/things/search', procedure: 'search', protect: false, docs, errors: [] },
  {
    method: 'POST',
    path: '/things',
    procedure: 'create',
    protect: false,
    docs,
    errors: [],
    rest: { successStatus: 201, inputErrorStatus: 422 },
  },
  { method: 'POST', path: '/things/touch', procedure: 'touch', docs, errors: [] },
  { method: 'GET', path: '/things/fail/{kind}', procedure: 'fail', protect: false, docs, errors: [] },
];

let t: TestApp;
let probeApp: Hono<AppEnv>;

beforeAll(async () => {
  t = await startTestApp();
  probeApp = new Hono<AppEnv>();
  probeApp.use('*', requestContext(t.deps));
  mountRest(probeApp, t.deps, { router: probe, routes: probeRoutes });
});
afterAll(() => t.close());

const get = (path: string, headers: Record<string, string> = {}) => probeApp.request(path, { headers });

describe('REST layer over the tRPC router', () => {
  it('routes a literal segment before a {param} one regardless of declaration order', async () => {
    expect(await (await get('/api/things/search?q=x')).json()).toMatchObject({ route: 'search' });
    expect(await (await get('/api/things/12345678')).json()).toEqual({ route: 'byId', id: '12345678' });
  });

  it('decodes path parameters', async () => {
    const res = await get('/api/things/a%20b');
    expect(await expectError(res, 400, 'Bad Request')).toContain('id must be 8 digits');
  });

  it('accepts año both raw and percent-encoded and coerces numbers from the schema', async () => {
    const raw = await (await get('/api/things/search?año=2025&mes=3')).json();
    const encoded = await (await get('/api/things/search?a%C3%B1o=2024&mes=12')).json();
    expect(raw.input).toEqual({ año: 2025, mes: 3 });
    expect(encoded.input).toEqual({ año: 2024, mes: 12 });
  });

  it('coerces booleans only from "true"/"false" (never by truthiness)', async () => {
    expect((await (await get('/api/things/search?paid=false')).json()).input).toEqual({ paid: false });
    await expectError(await get('/api/things/search?paid=0'), 400, 'Bad Request');
  });

  it('answers 400 with the issue for a query that fails the schema', async () => {
    const message = await expectError(await get('/api/things/search?mes=13'), 400, 'Bad Request');
    expect(message).toMatch(/^mes: /);
    await expectError(await get('/api/things/search?mes=abc'), 400, 'Bad Request');
    await expectError(await get('/api/things/search?mes=1&mes=2'), 400, 'Bad Request');
  });

  it('answers 201 on a creation and the route-specific 422 for its input errors', async () => {
    const ok = await probeApp.request('/api/things', { method: 'POST', body: '{"name":"a"}' });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ name: 'a' });
    const bad = await probeApp.request('/api/things', { method: 'POST', body: '{}' });
    expect(await expectError(bad, 422, 'Validation Error')).toMatch(/^name: /);
  });

  it('refuses malformed JSON and non-object bodies with 400', async () => {
    const res = await probeApp.request('/api/things', { method: 'POST', body: '{"name":' });
    expect(await expectError(res, 400, 'Bad Request')).toBe('Malformed JSON body');
    await expectError(
      await probeApp.request('/api/things', { method: 'POST', body: '[1]' }),
      400,
      'Bad Request',
    );
  });

  it('accepts a body-less POST with no content type', async () => {
    const user = await signUp(t);
    const res = await probeApp.request('/api/things/touch', { method: 'POST', headers: bearer(user.token) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ userId: user.id });
  });

  it('maps domain errors to their status, 409 and 429 with Retry-After', async () => {
    await expectError(await get('/api/things/fail/conflict'), 409, 'Conflict');
    const quota = await get('/api/things/fail/quota');
    expect(quota.headers.get('retry-after')).toBe('43');
    await expectError(quota, 429, 'Too Many Requests');
  });

  it('answers 503 with Retry-After when the database cannot be reached', async () => {
    const res = await get('/api/things/fail/db-down');
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await expectError(res, 503, 'Service Unavailable')).not.toContain('127.0.0.1');
  });

  it('hides unexpected failures behind a generic 500', async () => {
    for (const kind of ['crash', 'output']) {
      const res = await get(`/api/things/fail/${kind}`);
      const message = await expectError(res, 500, 'Internal Server Error');
      expect(message).not.toContain('hunter2');
    }
  });

  it('answers an unknown /api route with 404 in the error shape', async () => {
    await expectError(await get('/api/nothing/here'), 404, 'Not Found');
    await expectError(await request(t, 'DELETE', '/api/auth/register'), 404, 'Not Found');
  });
});

describe('file routes take the same pipeline as the procedures', () => {
  it('has an implementation for every file handler the route table names', () => {
    expect(Object.keys(fileHandlers).sort()).toEqual([...FILE_HANDLERS].sort());
  });

  it('authenticates before it looks at the query, then refuses a parameter the route does not read', async () => {
    await expectError(await request(t, 'GET', '/api/invoices/export?bogus=1'), 401, 'Unauthorized');
    const user = await signUp(t);
    const res = await request(t, 'GET', '/api/invoices/export?bogus=1', { headers: bearer(user.token) });
    expect(await expectError(res, 400, 'Bad Request')).toContain('bogus');
  });

  it('refuses NUL in a path parameter of a file route as invalid input', async () => {
    const user = await signUp(t);
    const res = await request(t, 'GET', '/api/invoices/a%00b/xml', { headers: bearer(user.token) });
    await expectError(res, 400, 'Bad Request');
  });

  it('serves a report as JSON, and as a file when its entry lists the asked format', async () => {
    const user = await signUp(t);
    const q = 'profileId=nope&año=2025&mes=1';
    // The same route: without a format the procedure answers (no such profile: 404); format=pdf
    // goes to the entry's file handler, which checks the plan first (FREE has no exportPDF: 403).
    const json = await request(t, 'GET', `/api/reports/monthly?${q}`, { headers: bearer(user.token) });
    const file = await request(t, 'GET', `/api/reports/monthly?${q}&format=pdf`, {
      headers: bearer(user.token),
    });
    await expectError(json, 404, 'Not Found');
    expect(await expectError(file, 403, 'Forbidden')).toMatch(/PDF/i);
  });
});
