// Webhook endpoints over REST and tRPC (integrations §2, docs/webhooks.md): created with the secret
// shown once, listed without it, changed, rotated, deleted; the test event reaches a real receiver on
// loopback signed so that the SDK's verifyWebhook accepts it; the delivery log and redelivery; the
// plan gate; another user's endpoint is 404 everywhere; API keys by scope.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AppJobRunner, createAppJobs, deriveDevKeyring } from '@folio/api';
import { verifyWebhook } from '@folio/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  bearer,
  caller,
  expectError,
  request,
  setPlan,
  signUp,
  signUpVerified,
  startTestApp,
  type TestApp,
  type TestUser,
  testConfig,
} from './harness';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
/** Requests the receiver got, and the waiters for the next one. */
const received: Received[] = [];
const waiting: ((r: Received) => void)[] = [];
const nextRequest = () => new Promise<Received>((resolve) => waiting.push(resolve));

let server: Server;
let hook: string;
let t: TestApp;
let jobs: AppJobRunner | undefined;
const log = { info() {}, warn() {}, error() {} };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const r = { headers: req.headers, body };
      received.push(r);
      res.writeHead(204).end();
      waiting.shift()?.(r);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  t = await startTestApp();
});
afterEach(async () => {
  await jobs?.stop();
  jobs = undefined;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

/** The job queue as the server runs it, delivering with the keyring the app seals secrets under. */
async function startJobs(): Promise<AppJobRunner> {
  jobs = createAppJobs({
    handle: t.handle,
    sender: { maxAttempts: 1, deliver: async () => ({ outcome: 'skipped' }), redactExpired: async () => 0 },
    log,
    pollingIntervalSeconds: 0.5,
    webhooks: { keyring: deriveDevKeyring(testConfig.authSecret), production: false, sweepMs: 60_000 },
  });
  await jobs.start();
  return jobs;
}

async function proUser(): Promise<TestUser> {
  const u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  return u;
}

const create = (u: TestUser, body: unknown = { url: hook, eventos: ['cfdi.imported'] }) =>
  request(t, 'POST', '/api/webhook-endpoints', { headers: bearer(u.token), body });

async function endpointOf(u: TestUser, eventos = ['cfdi.imported']) {
  const res = await create(u, { url: hook, eventos, descripcion: 'pruebas' });
  expect(res.status).toBe(201);
  return (await res.json()).data as { id: string; secret: string };
}

describe('managing endpoints over REST', () => {
  it('POST answers 201 with the endpoint and its whsec_ secret once; GET lists and reads it without', async () => {
    const u = await proUser();
    const res = await create(u, { url: hook, eventos: ['cfdi.imported', 'cfdi.cancelled'] });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toMatchObject({
      url: hook,
      eventos: ['cfdi.imported', 'cfdi.cancelled'],
      activo: true,
      descripcion: null,
      motivo_desactivacion: null,
    });
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const list = await (
      await request(t, 'GET', '/api/webhook-endpoints', { headers: bearer(u.token) })
    ).json();
    expect(list.data.map((e: { id: string }) => e.id)).toEqual([data.id]);
    const one = await request(t, 'GET', `/api/webhook-endpoints/${data.id}`, { headers: bearer(u.token) });
    expect(one.status).toBe(200);
    const { secret: _shownOnce, ...withoutSecret } = data;
    expect((await one.json()).data).toEqual(withoutSecret);
    expect(JSON.stringify(list)).not.toContain(data.secret);
  });

  it('bad input is a 400 naming the field and stores nothing: unknown event, ftp URL, no eventos', async () => {
    const u = await proUser();
    for (const [body, field] of [
      [{ url: hook, eventos: ['cfdi.borrado'] }, 'eventos.0'],
      [{ url: 'ftp://example.com/x', eventos: ['cfdi.imported'] }, 'url'],
      [{ url: hook, eventos: [] }, 'eventos'],
    ] as const) {
      const res = await create(u, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = await res.json();
      expect(err.fields.map((f: { path: string }) => f.path)).toContain(field);
    }
    const list = await (
      await request(t, 'GET', '/api/webhook-endpoints', { headers: bearer(u.token) })
    ).json();
    expect(list.data).toEqual([]);
  });

  it('PATCH changes url, eventos and activo; DELETE removes the endpoint (then 404)', async () => {
    const u = await proUser();
    const { id } = await endpointOf(u);
    const path = `/api/webhook-endpoints/${id}`;
    const patched = await request(t, 'PATCH', path, {
      headers: bearer(u.token),
      body: { url: `${hook}/v2`, eventos: ['subscription.updated'], activo: false },
    });
    expect(patched.status).toBe(200);
    expect((await patched.json()).data).toMatchObject({
      url: `${hook}/v2`,
      eventos: ['subscription.updated'],
      activo: false,
    });
    // An inactive endpoint cannot be tested.
    await expectError(
      await request(t, 'POST', `${path}/test`, { headers: bearer(u.token) }),
      409,
      'Conflict',
    );
    expect((await request(t, 'DELETE', path, { headers: bearer(u.token) })).status).toBe(200);
    await expectError(await request(t, 'GET', path, { headers: bearer(u.token) }), 404, 'Not Found');
  });

  it('rotate-secret answers a new whsec_ secret and how long the old one still signs; 25 hours is a 400', async () => {
    const u = await proUser();
    const { id, secret } = await endpointOf(u);
    const path = `/api/webhook-endpoints/${id}/rotate-secret`;
    const res = await request(t, 'POST', path, { headers: bearer(u.token), body: { grace_hours: 2 } });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.secret).toMatch(/^whsec_/);
    expect(data.secret).not.toBe(secret);
    expect(Date.parse(data.previous_valid_until)).toBeGreaterThan(Date.now());
    const none = await (await request(t, 'POST', path, { headers: bearer(u.token), body: {} })).json();
    expect(none.data.previous_valid_until).toBeNull();
    expect(
      (await request(t, 'POST', path, { headers: bearer(u.token), body: { grace_hours: 25 } })).status,
    ).toBe(400);
  });
});

describe('the test event, the delivery log and redelivery', () => {
  it('POST …/test reaches a loopback receiver signed for the SDK’s verifyWebhook; redeliver resends the same webhook-id', {
    timeout: 30_000,
  }, async () => {
    const u = await proUser();
    const { id, secret } = await endpointOf(u);
    const runner = await startJobs();
    const arrived = nextRequest();
    const res = await request(t, 'POST', `/api/webhook-endpoints/${id}/test`, { headers: bearer(u.token) });
    expect(res.status).toBe(200);
    await runner.webhooks.sweep();
    const first = await arrived;
    const event = verifyWebhook(first.body, first.headers, secret);
    expect(event.type).toBe('webhook.test');
    expect(event.data).toMatchObject({ endpoint_id: id, updated_at: expect.any(String) });
    expect(() => verifyWebhook(first.body, first.headers, `whsec_${'A'.repeat(44)}`)).toThrow();

    const deliveries = async () =>
      (
        await (
          await request(t, 'GET', `/api/webhook-endpoints/${id}/deliveries?limit=10`, {
            headers: bearer(u.token),
          })
        ).json()
      ).data as { id: string; event_id: string; event_type: string; status: string; attempts: number }[];
    await vi.waitFor(async () => expect((await deliveries())[0]?.status).toBe('succeeded'), {
      timeout: 20_000,
      interval: 100,
    });
    const [logged] = await deliveries();
    expect(logged).toMatchObject({
      event_id: first.headers['webhook-id'],
      event_type: 'webhook.test',
      attempts: 1,
      last_status_code: 204,
      next_attempt_at: null,
    });

    const again = nextRequest();
    const redo = await request(t, 'POST', `/api/webhook-endpoints/${id}/deliveries/${logged!.id}/redeliver`, {
      headers: bearer(u.token),
    });
    expect(redo.status).toBe(200);
    expect((await redo.json()).data).toMatchObject({ id: logged!.id, status: 'pending' });
    // While it is pending, asking again is a conflict.
    await expectError(
      await request(t, 'POST', `/api/webhook-endpoints/${id}/deliveries/${logged!.id}/redeliver`, {
        headers: bearer(u.token),
      }),
      409,
      'Conflict',
    );
    await runner.webhooks.sweep();
    const second = await again;
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(verifyWebhook(second.body, second.headers, secret).type).toBe('webhook.test');
  });
});

describe('who may manage endpoints', () => {
  it('FREE is refused naming BASIC, over REST (403 plan_required) and tRPC (FORBIDDEN)', async () => {
    const u = await signUp(t);
    const res = await create(u);
    const message = await expectError(res, 403, 'Forbidden');
    expect(message).toContain('BASIC');
    await expect(
      caller(t, u.token).webhookEndpoints.create({ url: hook, eventos: ['cfdi.imported'] }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('BASIC') });
  });

  it("another user's endpoint is 404 on every route, REST and tRPC, and stays unchanged", async () => {
    const owner = await proUser();
    const other = await proUser();
    const { id } = await endpointOf(owner);
    const base = `/api/webhook-endpoints/${id}`;
    const calls: [string, string, unknown?][] = [
      ['GET', base],
      ['PATCH', base, { activo: false }],
      ['DELETE', base],
      ['POST', `${base}/rotate-secret`, { grace_hours: 1 }],
      ['POST', `${base}/test`],
      ['GET', `${base}/deliveries`],
      ['POST', `${base}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`],
    ];
    for (const [method, path, body] of calls) {
      const res = await request(t, method, path, { headers: bearer(other.token), body });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
    }
    const trpc = caller(t, other.token).webhookEndpoints;
    for (const call of [
      () => trpc.get({ id }),
      () => trpc.update({ id, activo: false }),
      () => trpc.delete({ id }),
      () => trpc.rotateSecret({ id }),
      () => trpc.test({ id }),
      () => trpc.deliveries({ id }),
      () => trpc.redeliver({ id, deliveryId: 'x' }),
    ])
      await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await caller(t, other.token).webhookEndpoints.list()).data).toEqual([]);
    const mine = await caller(t, owner.token).webhookEndpoints.get({ id });
    expect(mine.data).toMatchObject({ id, activo: true });
  });

  it('a write API key manages its user’s endpoints; a read key lists them and may not create', async () => {
    const u = await signUpVerified(t);
    await setPlan(t, u.id, 'BASIC');
    const key = async (scope: string) =>
      (
        await (
          await request(t, 'POST', '/api/api-keys', {
            headers: bearer(u.token),
            body: { name: scope, scope },
          })
        ).json()
      ).data.key as string;
    const write = await key('write');
    const read = await key('read');
    const made = await request(t, 'POST', '/api/webhook-endpoints', {
      headers: bearer(write),
      body: { url: hook, eventos: ['invoice.payment_status.updated'] },
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()).data;
    const listed = await request(t, 'GET', '/api/webhook-endpoints', { headers: bearer(read) });
    expect((await listed.json()).data.map((e: { id: string }) => e.id)).toEqual([id]);
    const refused = await request(t, 'POST', '/api/webhook-endpoints', {
      headers: bearer(read),
      body: { url: hook, eventos: ['cfdi.imported'] },
    });
    await expectError(refused, 403, 'Forbidden');
  });
});

describe('the tRPC procedures', () => {
  it('create, list, update, rotateSecret and delete as REST does', async () => {
    const u = await proUser();
    const trpc = caller(t, u.token).webhookEndpoints;
    const { data } = await trpc.create({ url: hook, eventos: ['sat_sync.failed'] });
    expect(data.secret).toMatch(/^whsec_/);
    expect((await trpc.list()).data).toEqual([expect.not.objectContaining({ secret: expect.anything() })]);
    expect((await trpc.update({ id: data.id, descripcion: 'nocturno' })).data.descripcion).toBe('nocturno');
    expect((await trpc.rotateSecret({ id: data.id, grace_hours: 0 })).data.secret).not.toBe(data.secret);
    await trpc.delete({ id: data.id });
    expect((await trpc.list()).data).toEqual([]);
  });
});
