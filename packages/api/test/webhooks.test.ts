// Outgoing webhooks (integrations §2, docs/webhooks.md) against a real HTTP receiver on loopback:
// events written with the change that causes them (and not when it rolls back), delivered on the job
// queue with Standard Webhooks signatures (checked by the `standardwebhooks` package and by hand),
// retried, cut at the timeout, and never sent to private addresses in production.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { applyProviderSubscription } from '@folio/billing';
import { newUuid } from '@folio/cfdi/testing';
import { rowsOf } from '@folio/db';
import { outgoingEvents, webhookDeliveries } from '@folio/db/schema';
import { eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Context, createContext } from '../src/context';
import { markSatStatus } from '../src/services/cfdi/mark-status';
import { deriveDevKeyring } from '../src/services/efirma/keyring';
import { type AppJobRunner, createAppJobs } from '../src/services/jobs/app-jobs';
import { createJobQueue, jobSource } from '../src/services/jobs/queue';
import { type DeliveryDeps, deliverAttempt } from '../src/services/webhooks/deliver';
import {
  createWebhookSweeper,
  type WebhookJobs,
  webhookQueues,
} from '../src/services/webhooks/delivery-jobs';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  rotateWebhookSecret,
  testWebhookEndpoint,
  updateWebhookEndpoint,
} from '../src/services/webhooks/endpoints';
import { emit, SUBSCRIBABLE_EVENTS, type WebhookEventType } from '../src/services/webhooks/events';
import {
  checkEndpointUrl,
  DELIVERY_TIMEOUT_MS,
  RETRY_DELAYS_S,
  retryDelaySeconds,
} from '../src/services/webhooks/rules';
import { postWebhook } from '../src/services/webhooks/send';
import { isRefusedAddress } from '../src/services/webhooks/ssrf';
import { profileOfMe, repFor, sale } from './cfdi-setup';
import { caller, setPlan, signUp, startTestApi, type TestApi, testConfig } from './harness';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
let received: Received[] = [];
/** How the receiver answers the n-th request (1-based): a status, or 'hang' (never answers). */
let answer: (n: number) => number | 'hang' = () => 200;
let server: Server;
let base: string;
let t: TestApi;
const running: AppJobRunner[] = [];
const log = { info() {}, warn() {}, error() {} };
const keyring = deriveDevKeyring(testConfig.authSecret);

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      const a = answer(received.length);
      if (a !== 'hang') res.writeHead(a).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startTestApi();
});

afterEach(async () => {
  for (const jobs of running.splice(0)) await jobs.stop();
  received = [];
  answer = () => 200;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const ctxOf = (): Context =>
  createContext(t.deps, {
    requestId: 'req-webhooks',
    token: null,
    tokenSource: null,
    method: null,
    origin: null,
    ip: '203.0.113.9',
    idempotencyKey: null,
    resHeaders: new Headers(),
  });

const deliveryDeps = (over: Partial<DeliveryDeps> = {}): DeliveryDeps => ({
  db: t.handle.db,
  keyring,
  log,
  production: false,
  kickEmail: () => {},
  ...over,
});

/** A PRO user with ME's profile and an endpoint on the receiver for these events. */
async function subscriber(eventos: string[] = [...SUBSCRIBABLE_EVENTS], path = '/hooks') {
  const { u, p } = await profileOfMe(t);
  const endpoint = await createWebhookEndpoint(ctxOf(), u.id, { url: `${base}${path}`, eventos });
  return { u, p, endpoint };
}

const deliveriesOf = (endpointId: string) =>
  t.handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));

/** Runs every pending delivery of the endpoint once, as its job would (attempt = attempts made). */
async function deliverPending(endpointId: string, deps = deliveryDeps()) {
  const scheduled: { attempt: number; at: Date }[] = [];
  for (const d of await deliveriesOf(endpointId)) {
    if (d.status !== 'pending') continue;
    await deliverAttempt(deps, d.id, d.attempts, async (_tx, attempt, at) => {
      scheduled.push({ attempt, at });
    });
  }
  return scheduled;
}

/** Standard Webhooks by hand: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes. */
function signedByHand(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = `${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.body}`;
  const expected = `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
  return String(r.headers['webhook-signature']).split(' ').includes(expected);
}

const verifiedByLibrary = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: string };

async function startJobs(): Promise<AppJobRunner> {
  const jobs = createAppJobs({
    handle: t.handle,
    sender: { maxAttempts: 1, deliver: async () => ({ outcome: 'skipped' }), redactExpired: async () => 0 },
    log,
    pollingIntervalSeconds: 0.5,
    webhooks: { keyring, production: false, sweepMs: 60_000 },
  });
  await jobs.start();
  running.push(jobs);
  return jobs;
}

describe('events are written with the change, for subscribed active endpoints only', () => {
  it('an import batch writes one cfdi.imported event with the ids and counts', async () => {
    const { u, p, endpoint } = await subscriber(['cfdi.imported']);
    const uuid = newUuid();
    const { data } = await caller(t, u.token).cfdi.import({
      profileId: p.id,
      files: [
        { name: 'a.xml', content: sale(uuid) },
        { name: 'b.xml', content: sale(uuid) },
      ],
    });
    const [d] = await deliveriesOf(endpoint.id);
    const [event] = await t.handle.db.select().from(outgoingEvents).where(eq(outgoingEvents.id, d!.eventId));
    expect(event!.type).toBe('cfdi.imported');
    expect(event!.id).toMatch(/^msg_[^.]+$/);
    expect(event!.data).toMatchObject({
      profile_id: p.id,
      imported: 1,
      duplicates: 1,
      rejected: 0,
      ids: [data.files[0]!.id],
      count: 1,
      updated_at: expect.any(String),
    });
  });

  it('a rolled-back import writes no event and delivers nothing', async () => {
    const { u, p, endpoint } = await subscriber(['cfdi.imported']);
    // A database failure inside the import's transaction (after the CFDI row, before commit).
    await t.handle.db.execute(
      sql.raw(`create or replace function webhooks_test_fail() returns trigger
      language plpgsql as $$ begin raise exception 'injected failure'; end $$`),
    );
    await t.handle.db.execute(
      sql.raw(
        'create trigger webhooks_test_fail before insert on cfdi_xml for each row execute function webhooks_test_fail()',
      ),
    );
    try {
      await expect(
        caller(t, u.token).cfdi.import({
          profileId: p.id,
          files: [{ name: 'a.xml', content: sale(newUuid()) }],
        }),
      ).rejects.toThrow();
    } finally {
      await t.handle.db.execute(sql.raw('drop trigger webhooks_test_fail on cfdi_xml'));
    }
    expect(await deliveriesOf(endpoint.id)).toEqual([]);
    const events = rowsOf<{ n: number }>(
      await t.handle.db.execute(sql`select count(*)::int as n from outgoing_events where user_id = ${u.id}`),
    );
    expect(events[0]!.n).toBe(0);
    await deliverPending(endpoint.id);
    expect(received).toEqual([]);
  });

  it('an inactive endpoint and an endpoint not subscribed to the type get nothing', async () => {
    const { u, p, endpoint } = await subscriber(['cfdi.imported']);
    const off = await createWebhookEndpoint(ctxOf(), u.id, {
      url: `${base}/off`,
      eventos: ['cfdi.imported'],
    });
    await updateWebhookEndpoint(ctxOf(), u.id, off.id, { activo: false });
    const other = await createWebhookEndpoint(ctxOf(), u.id, {
      url: `${base}/other`,
      eventos: ['cfdi.cancelled'],
    });
    await caller(t, u.token).cfdi.import({
      profileId: p.id,
      files: [{ name: 'a.xml', content: sale(newUuid()) }],
    });
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
    expect(await deliveriesOf(off.id)).toEqual([]);
    expect(await deliveriesOf(other.id)).toEqual([]);
  });

  it('an import with no endpoints writes no event rows; the read it makes is served by the active-endpoints index', async () => {
    const { u, p } = await profileOfMe(t);
    await caller(t, u.token).cfdi.import({
      profileId: p.id,
      files: [{ name: 'a.xml', content: sale(newUuid()) }],
    });
    const events = rowsOf<{ n: number }>(
      await t.handle.db.execute(sql`select count(*)::int as n from outgoing_events where user_id = ${u.id}`),
    );
    expect(events[0]!.n).toBe(0);
    // The emission's one read (insertEvents), planned without sequential scans: the partial index
    // on the user's active endpoints answers it, however many endpoints other users have.
    const plan = await t.handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf<Record<string, string>>(
        await tx.execute(
          sql`explain select id from webhook_endpoints where user_id = ${u.id} and activo and eventos @> array['cfdi.imported']`,
        ),
      );
    });
    expect(plan.map((r) => Object.values(r)[0]).join('\n')).toContain('webhook_endpoints_active_idx');
  });
});

describe('delivery', () => {
  it('each event type is delivered once, signed so that standardwebhooks and a hand-written HMAC verify it', async () => {
    const { u, p, endpoint } = await subscriber([...SUBSCRIBABLE_EVENTS], '/all-types');
    const ctx = ctxOf();
    const invoiceUuid = newUuid();
    // cfdi.imported (×2) and invoice.payment_status.updated: the invoice's total is 1000 + 16 % IVA =
    // 1160; the complement pays 580, leaving 1160 − 580 = 580 (PAGO_PARCIAL).
    const { data } = await caller(t, u.token).cfdi.import({
      profileId: p.id,
      files: [
        {
          name: 'inv.xml',
          content: sale(invoiceUuid, { conceptos: [{ descripcion: 'Servicio', importe: 1000 }] }),
        },
      ],
    });
    await caller(t, u.token).cfdi.import({
      profileId: p.id,
      files: [
        {
          name: 'rep.xml',
          content: repFor(invoiceUuid, [{ numParcialidad: 1, impSaldoAnt: 1160, impPagado: 580 }]),
        },
      ],
    });
    // cfdi.cancelled: the user's mark.
    await markSatStatus(ctx, u.id, data.files[0]!.id!, 'income', {
      estatus_sat: 'cancelado',
      fecha_cancelacion: '2025-03-25',
    });
    // subscription.updated: the provider's subscription applied (PRO → BASIC).
    await t.handle.db.transaction((tx) =>
      applyProviderSubscription(
        tx,
        u.id,
        {
          id: 'sub_webhooks',
          customer: 'cus_webhooks',
          status: 'active',
          items: { data: [] },
          metadata: { plan: 'BASIC', billing: 'monthly' },
          cancel_at_period_end: false,
          cancel_at: null,
          created: 1_760_000_000,
          trial_start: null,
        } as unknown as Parameters<typeof applyProviderSubscription>[2],
        { planOfPrice: async () => undefined },
        { kind: 'webhook', eventId: 'evt_webhooks', eventType: 'customer.subscription.updated' },
      ),
    );
    // sat_sync.*: defined for the sync job, emitted here as it will.
    await t.handle.db.transaction(async (tx) => {
      const at = new Date().toISOString();
      await emit(tx, { profileId: p.id }, 'sat_sync.completed', [
        { sync_id: 's1', profile_id: p.id, updated_at: at },
      ]);
      await emit(tx, { profileId: p.id }, 'sat_sync.failed', [
        { sync_id: 's2', profile_id: p.id, error: 'SAT 5011', updated_at: at },
      ]);
    });
    await testWebhookEndpoint(ctx, u.id, endpoint.id);

    const jobs = await startJobs();
    await jobs.webhooks.sweep();
    const expected = (await deliveriesOf(endpoint.id)).length;
    // Other tests' endpoints on this database get their pending deliveries too: only this one's count.
    const mine = () => received.filter((r) => r.path === '/all-types');
    await vi.waitFor(
      async () => expect((await deliveriesOf(endpoint.id)).every((d) => d.status !== 'pending')).toBe(true),
      { timeout: 20_000, interval: 100 },
    );
    received = mine();
    expect(received).toHaveLength(expected);
    const types = received.map((r) => verifiedByLibrary(endpoint.secret, r).type);
    for (const r of received) expect(signedByHand(endpoint.secret, r)).toBe(true);
    const wanted: WebhookEventType[] = [...SUBSCRIBABLE_EVENTS, 'webhook.test'];
    expect(new Set(types)).toEqual(new Set(wanted));
    expect(types.filter((x) => x === 'cfdi.imported')).toHaveLength(2);
    for (const type of wanted.filter((x) => x !== 'cfdi.imported')) {
      expect(
        types.filter((x) => x === type),
        type,
      ).toHaveLength(1);
    }
    // Every event once: no webhook-id twice.
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(received.length);
    for (const r of received) {
      const body = JSON.parse(r.body);
      expect(body.data.updated_at).toEqual(expect.any(String));
      expect(Buffer.byteLength(r.body)).toBeLessThan(20_000);
    }
    const paid = received
      .map((r) => JSON.parse(r.body))
      .find((b) => b.type === 'invoice.payment_status.updated');
    expect(paid.data).toMatchObject({
      invoice_id: data.files[0]!.id,
      estado_anterior: 'NO_PAGADO',
      estado: 'PAGO_PARCIAL',
      saldo: 1160 - 580,
    });
    const sub = received.map((r) => JSON.parse(r.body)).find((b) => b.type === 'subscription.updated');
    expect(sub.data).toMatchObject({ plan: 'BASIC', status: 'ACTIVE' });
    expect((await deliveriesOf(endpoint.id)).every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(
      true,
    );
  });

  it('a receiver answering 500 then 200 gets two attempts with the same webhook-id', async () => {
    const { u, endpoint } = await subscriber();
    await testWebhookEndpoint(ctxOf(), u.id, endpoint.id);
    answer = (n) => (n === 1 ? 500 : 200);
    const retries = await deliverPending(endpoint.id);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.attempt).toBe(1);
    const [d1] = await deliveriesOf(endpoint.id);
    expect(d1).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500, queuedAttempt: 1 });
    await deliverPending(endpoint.id);
    const [d2] = await deliveriesOf(endpoint.id);
    expect(d2).toMatchObject({ status: 'succeeded', attempts: 2, lastStatusCode: 200 });
    expect(received).toHaveLength(2);
    expect(received[0]!.headers['webhook-id']).toBe(received[1]!.headers['webhook-id']);
    for (const r of received) expect(signedByHand(endpoint.secret, r)).toBe(true);
  });

  it('a receiver that does not answer is cut at the timeout (10 s in production) and retried', async () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
    const { u, endpoint } = await subscriber();
    await testWebhookEndpoint(ctxOf(), u.id, endpoint.id);
    answer = () => 'hang';
    const retries = await deliverPending(endpoint.id, deliveryDeps({ timeoutMs: 300 }));
    expect(retries).toHaveLength(1);
    const [d] = await deliveriesOf(endpoint.id);
    expect(d).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
    expect(d!.lastError).toContain('no answer within 0.3 s');
  });

  it('a 3xx is a failure (no redirect followed) and a 410 disables the endpoint at once, mailing its owner', async () => {
    const { u, endpoint } = await subscriber();
    await testWebhookEndpoint(ctxOf(), u.id, endpoint.id);
    answer = () => 302;
    await deliverPending(endpoint.id);
    expect(received).toHaveLength(1);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'pending', lastStatusCode: 302 });
    answer = () => 410;
    const kicked = vi.fn();
    await deliverPending(endpoint.id, deliveryDeps({ kickEmail: kicked }));
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'failed', lastStatusCode: 410 });
    const [listed] = (await listWebhookEndpoints(ctxOf(), u.id)).filter((e) => e.id === endpoint.id);
    expect(listed).toMatchObject({ activo: false, motivo_desactivacion: 'gone' });
    const mails = rowsOf<{ n: number }>(
      await t.handle.db.execute(
        sql`select count(*)::int as n from email_outbox where "to" = ${u.email} and kind = 'webhook-disabled'`,
      ),
    );
    expect(mails[0]!.n).toBe(1);
    expect(kicked).toHaveBeenCalledOnce();
  });

  it('an endpoint failing for 3 days is disabled', async () => {
    const { u, endpoint } = await subscriber();
    await testWebhookEndpoint(ctxOf(), u.id, endpoint.id);
    answer = () => 500;
    await deliverPending(endpoint.id);
    const threeDaysOn = new Date(Date.now() + 3 * 86_400_000 + 1000);
    await deliverPending(endpoint.id, deliveryDeps({ now: () => threeDaysOn }));
    const [listed] = (await listWebhookEndpoints(ctxOf(), u.id)).filter((e) => e.id === endpoint.id);
    expect(listed).toMatchObject({ activo: false, motivo_desactivacion: 'failing' });
  });

  it('the back-off waits about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then gives up; Retry-After is honoured', () => {
    const mid = () => 0.5; // jitter ±10%: the middle is the base
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelaySeconds(n, null, mid))).toEqual([
      5,
      5 * 60,
      30 * 60,
      2 * 3600,
      5 * 3600,
      10 * 3600,
    ]);
    expect(retryDelaySeconds(7, null, mid)).toBeNull();
    expect(RETRY_DELAYS_S).toHaveLength(6);
    expect(retryDelaySeconds(1, 120, mid)).toBe(120);
    expect(retryDelaySeconds(1, null, () => 0)).toBeCloseTo(4.5);
    expect(retryDelaySeconds(1, null, () => 1)).toBeCloseTo(5.5);
  });

  it('rotate-secret takes effect on the next delivery; during a grace period both secrets sign', async () => {
    const { u, endpoint } = await subscriber();
    const { secret: second } = await rotateWebhookSecret(ctxOf(), u.id, endpoint.id, { grace_hours: 0 });
    await testWebhookEndpoint(ctxOf(), u.id, endpoint.id);
    await deliverPending(endpoint.id);
    expect(signedByHand(second, received[0]!)).toBe(true);
    expect(signedByHand(endpoint.secret, received[0]!)).toBe(false);
    expect(() => verifiedByLibrary(endpoint.secret, received[0]!)).toThrow();

    const { secret: third } = await rotateWebhookSecret(ctxOf(), u.id, endpoint.id, { grace_hours: 2 });
    await testWebhookEndpoint(ctxOf(), u.id, endpoint.id);
    await deliverPending(endpoint.id);
    const last = received[1]!;
    expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(signedByHand(third, last) && signedByHand(second, last)).toBe(true);
    expect(verifiedByLibrary(third, last).type).toBe('webhook.test');
    expect(verifiedByLibrary(second, last).type).toBe('webhook.test');
    // The delivery log, newest first.
    const logged = await listWebhookDeliveries(ctxOf(), u.id, endpoint.id);
    expect(logged.map((d) => d.event_id)).toEqual([
      last.headers['webhook-id'],
      received[0]!.headers['webhook-id'],
    ]);
    await expect(rotateWebhookSecret(ctxOf(), u.id, endpoint.id, { grace_hours: 25 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('a redelivery sends the event again with the same webhook-id, a new timestamp and signature', async () => {
    const { u, endpoint } = await subscriber();
    await testWebhookEndpoint(ctxOf(), u.id, endpoint.id);
    await deliverPending(endpoint.id);
    const [listed] = await listWebhookDeliveries(ctxOf(), u.id, endpoint.id);
    expect(listed).toMatchObject({
      event_type: 'webhook.test',
      status: 'succeeded',
      attempts: 1,
      last_status_code: 200,
    });
    const again = await redeliverWebhook(ctxOf(), u.id, endpoint.id, listed!.id);
    expect(again.status).toBe('pending');
    await expect(redeliverWebhook(ctxOf(), u.id, endpoint.id, listed!.id)).rejects.toMatchObject({
      reason: 'webhook_delivery_pending',
    });
    // The sweep gives the reopened delivery its job; run that job's attempt.
    await deliverPending(endpoint.id);
    expect(received).toHaveLength(2);
    expect(received[1]!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id']);
    expect(signedByHand(endpoint.secret, received[1]!)).toBe(true);
  });

  it('a killed server delivers the pending events after restart, each once', async () => {
    const { u, endpoint } = await subscriber([...SUBSCRIBABLE_EVENTS], '/restart');
    // Server 1 runs, then dies.
    const first = await startJobs();
    await first.stop();
    running.splice(running.indexOf(first), 1);
    // Two events whose jobs a process queued before dying (it only sends, never runs them)…
    for (let i = 0; i < 2; i++) await testWebhookEndpoint(ctxOf(), u.id, endpoint.id);
    const sender = createJobQueue<WebhookJobs>({
      source: jobSource(t.handle),
      queues: webhookQueues<WebhookJobs>(deliveryDeps()),
      log,
      work: false,
    });
    await sender.start();
    await createWebhookSweeper({ db: t.handle.db, queue: sender, log }).sweep();
    await sender.stop();
    // …and three committed after that, with no job at all.
    for (let i = 0; i < 3; i++) await testWebhookEndpoint(ctxOf(), u.id, endpoint.id);
    const rows = await deliveriesOf(endpoint.id);
    expect(rows.filter((d) => d.queuedAttempt === 0)).toHaveLength(2);
    expect(rows.filter((d) => d.queuedAttempt === null)).toHaveLength(3);
    expect(received.filter((r) => r.path === '/restart')).toEqual([]);
    // Server 2 on the same database: its start's sweep gives the three their jobs; the two run as queued.
    await startJobs();
    await vi.waitFor(
      async () => {
        const rows = await deliveriesOf(endpoint.id);
        expect(rows.every((d) => d.status === 'succeeded')).toBe(true);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(await createWebhookSweeper({ db: t.handle.db, queue: running[0]!.queue, log }).sweep()).toBe(0);
    received = received.filter((r) => r.path === '/restart');
    expect(received).toHaveLength(5);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(5);
    expect((await deliveriesOf(endpoint.id)).map((d) => d.attempts)).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('SSRF: in production a delivery never connects to a private address', () => {
  const headers = { 'webhook-id': 'msg_x', 'webhook-timestamp': '0', 'webhook-signature': 'v1,x' };
  const port = () => (server.address() as AddressInfo).port;

  it.each([
    ['127.0.0.1 (loopback)', () => `http://127.0.0.1:${port()}/`],
    ['10.0.0.1 (RFC 1918)', () => 'http://10.0.0.1/'],
    ['169.254.169.254 (cloud metadata, link-local)', () => 'http://169.254.169.254/latest/meta-data'],
    ['a name resolving to loopback (localhost)', () => `http://localhost:${port()}/`],
    ['an IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${port()}/`],
  ])('refuses %s', async (_name, url) => {
    const r = await postWebhook(url(), '{}', headers, { timeoutMs: 2000, guard: true });
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/private address|refused/);
    expect(received).toEqual([]);
  });

  it('a production delivery to an endpoint whose name resolves to loopback fails without connecting', async () => {
    const { u, endpoint } = await subscriber(['cfdi.imported'], '/ssrf');
    // Saved outside production (http to localhost), delivered by a production worker.
    await updateWebhookEndpoint(ctxOf(), u.id, endpoint.id, { url: `http://localhost:${port()}/ssrf` });
    await testWebhookEndpoint(ctxOf(), u.id, endpoint.id);
    await deliverPending(endpoint.id, deliveryDeps({ production: true }));
    expect(received).toEqual([]);
    expect((await deliveriesOf(endpoint.id))[0]!.lastError).toMatch(/private address/);
  });

  it('classifies addresses: private, CGNAT, ULA, link-local and unspecified are refused; public ones are not', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ])
      expect(isRefusedAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1', '100.128.0.1'])
      expect(isRefusedAddress(a), a).toBe(false);
  });
});

describe('endpoint management', () => {
  it('URL rules: https in production (never to a private literal); http only to loopback outside production', () => {
    expect(checkEndpointUrl('https://hooks.example.com/x', true)).toBe('https://hooks.example.com/x');
    expect(() => checkEndpointUrl('http://hooks.example.com/x', true)).toThrow(/https/);
    expect(() => checkEndpointUrl('http://localhost:3000/x', true)).toThrow(/https/);
    expect(() => checkEndpointUrl('https://10.0.0.1/x', true)).toThrow(/private/);
    expect(checkEndpointUrl('http://localhost:3000/x', false)).toBe('http://localhost:3000/x');
    expect(checkEndpointUrl('http://127.0.0.1:3000/x', false)).toBe('http://127.0.0.1:3000/x');
    expect(() => checkEndpointUrl('http://hooks.example.com/x', false)).toThrow(/localhost/);
    expect(() => checkEndpointUrl('ftp://x/', false)).toThrow();
    expect(() => checkEndpointUrl('not a url', false)).toThrow(/valid/);
  });

  it('FREE is refused naming BASIC; the secret is shown once (whsec_) and never listed', async () => {
    const free = await signUp(t);
    await expect(
      createWebhookEndpoint(ctxOf(), free.id, { url: `${base}/x`, eventos: ['cfdi.imported'] }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      reason: 'plan_required',
      message: expect.stringContaining('BASIC'),
    });
    const basic = await signUp(t);
    await setPlan(t, basic.id, 'BASIC');
    const created = await createWebhookEndpoint(ctxOf(), basic.id, {
      url: `${base}/x`,
      eventos: ['cfdi.imported'],
      descripcion: 'ERP',
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(created).toMatchObject({ activo: true, eventos: ['cfdi.imported'], descripcion: 'ERP' });
    const listed = await listWebhookEndpoints(ctxOf(), basic.id);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.secret.slice(6));
    // At rest the secret is sealed: the row does not contain it.
    const raw = JSON.stringify(
      rowsOf(await t.handle.db.execute(sql`select * from webhook_endpoints where id = ${created.id}`)),
    );
    expect(raw).not.toContain(created.secret.slice(6));
    await expect(
      createWebhookEndpoint(ctxOf(), basic.id, { url: `${base}/x`, eventos: ['report.ready'] }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('at most 10 endpoints a user', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    for (let i = 0; i < 10; i++)
      await createWebhookEndpoint(ctxOf(), u.id, { url: `${base}/${i}`, eventos: ['cfdi.imported'] });
    await expect(
      createWebhookEndpoint(ctxOf(), u.id, { url: `${base}/10`, eventos: ['cfdi.imported'] }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', reason: 'webhook_endpoint_limit_reached' });
  });

  it("another user's endpoint is not found for every operation", async () => {
    const { u, endpoint } = await subscriber();
    await testWebhookEndpoint(ctxOf(), u.id, endpoint.id);
    const [delivery] = await deliveriesOf(endpoint.id);
    const other = await signUp(t);
    await setPlan(t, other.id, 'PRO');
    const ctx = ctxOf();
    const attempts: (() => Promise<unknown>)[] = [
      () => updateWebhookEndpoint(ctx, other.id, endpoint.id, { activo: false }),
      () => deleteWebhookEndpoint(ctx, other.id, endpoint.id),
      () => rotateWebhookSecret(ctx, other.id, endpoint.id, {}),
      () => testWebhookEndpoint(ctx, other.id, endpoint.id),
      () => listWebhookDeliveries(ctx, other.id, endpoint.id),
      () => redeliverWebhook(ctx, other.id, endpoint.id, delivery!.id),
    ];
    for (const a of attempts) await expect(a()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await listWebhookEndpoints(ctx, other.id)).toEqual([]);
    // Nothing changed for the owner.
    const [still] = await listWebhookEndpoints(ctx, u.id);
    expect(still).toMatchObject({ id: endpoint.id, activo: true });
  });

  it('update changes url, eventos and activo; delete removes the endpoint and its deliveries', async () => {
    const { u, endpoint } = await subscriber(['cfdi.imported']);
    const changed = await updateWebhookEndpoint(ctxOf(), u.id, endpoint.id, {
      url: `${base}/new`,
      eventos: ['cfdi.cancelled', 'cfdi.cancelled'],
      activo: false,
    });
    expect(changed).toMatchObject({ url: `${base}/new`, eventos: ['cfdi.cancelled'], activo: false });
    await deleteWebhookEndpoint(ctxOf(), u.id, endpoint.id);
    expect(await listWebhookEndpoints(ctxOf(), u.id)).toEqual([]);
    await expect(deleteWebhookEndpoint(ctxOf(), u.id, endpoint.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
