/**
 * Two API processes on one PostgreSQL (issue 8), PostgreSQL only: two real servers (`src/main.ts`
 * as child processes) share one database, started at the same time as a rolling deploy would, and
 * every limit holds across them because it is counted in the database, not in a process.
 * Both speak the real Stripe SDK to one shared provider (a FakeStripe served on loopback through
 * STRIPE_API_URL), as two replicas share one Stripe account, so a webhook event can reach either.
 */
import { randomBytes } from 'node:crypto';
import { FakeStripe } from '@folio/billing-dev';
import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import { serve } from '@hono/node-server';
import { strToU8, zipSync } from 'fflate';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from './harness';
import { call, type ServerProcess, startServer } from './support/server-process';

const SERVER_URL = process.env.TEST_DATABASE_URL;
const WEBHOOK_SECRET = 'whsec_two_processes_0123456789abcdef';

describe.skipIf(!SERVER_URL)(
  'two API processes on one PostgreSQL (PostgreSQL only: runs under scripts/with-postgres.sh)',
  () => {
    let admin: postgres.Sql;
    let sql: postgres.Sql;
    let name: string;
    let a: ServerProcess | undefined;
    let b: ServerProcess | undefined;
    const both = () => [a!, b!] as const;
    // One provider for both processes; no webhook target is connected, the test delivers by hand.
    const fake = new FakeStripe({ appUrl: 'http://folio.invalid', webhookSecret: WEBHOOK_SECRET });
    let provider: ReturnType<typeof serve> | undefined;

    beforeAll(async () => {
      const providerUrl = await new Promise<string>((resolve) => {
        provider = serve(
          { fetch: (req: Request) => fake.fetch(req), port: 0, hostname: '127.0.0.1' },
          (info) => resolve(`http://127.0.0.1:${info.port}`),
        );
      });
      admin = postgres(SERVER_URL!, { max: 1, onnotice: () => {} });
      name = `two_${process.pid}_${randomBytes(4).toString('hex')}`;
      await admin.unsafe(`create database "${name}"`);
      const url = new URL(SERVER_URL!);
      url.pathname = `/${name}`;
      sql = postgres(url.toString(), { max: 2, onnotice: () => {} });
      // Both start on the empty database at once: the migrations must not trip over each other.
      const env = {
        DATABASE_URL: url.toString(),
        TRUST_PROXY: 'true',
        DB_POOL_MAX: '5',
        STRIPE_SECRET_KEY: 'sk_test_two_processes',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: providerUrl,
      };
      [a, b] = await Promise.all([startServer(env), startServer(env)]);
    }, 120_000);

    afterAll(async () => {
      await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
      await sql?.end({ timeout: 5 }).catch(() => {});
      if (name) await admin.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
      await admin?.end({ timeout: 5 }).catch(() => {});
      await new Promise<void>((done) => {
        if (!provider) return done();
        if ('closeAllConnections' in provider) provider.closeAllConnections();
        provider.close(() => done());
      });
    });

    /** A fresh FREE user, registered on one process and logged in on the other. */
    async function freeUser() {
      const [first, second] = both();
      const email = `two-${randomBytes(6).toString('hex')}@example.com`;
      const password = 'correct horse 1';
      const reg = await call(first, 'POST', '/api/auth/register', { body: { email, password } });
      expect(reg.status).toBe(201);
      const login = await call(second, 'POST', '/api/auth/login', { body: { email, password } });
      expect(login.status).toBe(200);
      return { email, password, token: login.body.accessToken as string, id: login.body.user.id as string };
    }

    /** A FREE user who has also clicked the link in the verification mail (checkout needs it). */
    async function verifiedUser() {
      const u = await freeUser();
      const mail = await call(a!, 'GET', `/__dev/mail.json?to=${encodeURIComponent(u.email)}`);
      const token = /verify-email\?token=([a-z0-9]+)/.exec(mail.body.data[0].text)?.[1];
      const verified = await call(b!, 'GET', `/api/auth/verify-email?token=${token}`, {
        headers: { accept: 'application/json' },
      });
      expect(verified.status).toBe(200);
      return u;
    }

    const tally = (values: (number | string)[]) =>
      values.reduce<Record<string, number>>((acc, s) => {
        acc[s] = (acc[s] ?? 0) + 1;
        return acc;
      }, {});

    it('both processes serve the same data: a session made on one works on the other', async () => {
      const u = await freeUser();
      for (const s of both()) {
        const me = await call(s, 'GET', '/api/auth/me', { token: u.token });
        expect(me.status).toBe(200);
        expect(me.body.user.email).toBe(u.email);
      }
    });

    it('a FREE user firing 30 SAT searches alternating between the processes, concurrently: exactly 10 succeed', async () => {
      const u = await freeUser();
      const statuses = await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const res = await call(both()[i % 2]!, 'GET', `/api/sat/search?query=servicios&limit=1`, {
            token: u.token,
          });
          if (res.status === 429) expectErrorBody(res.body);
          return res.status;
        }),
      );
      expect(tally(statuses)).toEqual({ 200: 10, 429: 20 });
      const [row] =
        await sql`select used from usage_counters where user_id = ${u.id} and kind = 'sat_basic_search'`;
      expect(row?.used).toBe(10);
    });

    it('profile creation at the plan limit racing on both processes: exactly 1 is created', async () => {
      const u = await freeUser();
      const rfc = (i: number) => `GOMA${String(800101 + i).padStart(6, '0')}AB${i % 10}`;
      const statuses = await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const res = await call(both()[i % 2]!, 'POST', '/api/profiles', {
            token: u.token,
            body: { nombre: `Perfil ${i}`, rfc: rfc(i), tipo_persona: 'FISICA' },
          });
          return res.status;
        }),
      );
      expect(tally(statuses)).toEqual({ 201: 1, 403: 9 });
      const [row] = await sql`select count(*)::int as n from profiles where user_id = ${u.id}`;
      expect(row?.n).toBe(1);
    });

    it('four ZIP imports of a FREE user racing on both processes, with UUIDs in common: exactly 50 stored and counted', async () => {
      const u = await freeUser();
      const me = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };
      const client = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };
      const profile = await call(a!, 'POST', '/api/profiles', {
        token: u.token,
        body: { nombre: me.nombre, rfc: me.rfc, tipo_persona: 'MORAL', regimenes_fiscales: ['601'] },
      });
      expect(profile.status).toBe(201);
      // 30 files each: 10 UUIDs every ZIP shares (in another order in each), 20 of its own.
      const shared = Array.from({ length: 10 }, () => newUuid());
      const zips = Array.from({ length: 4 }, (_, z) => {
        const uuids = [
          ...(z % 2 ? [...shared].reverse() : shared),
          ...Array.from({ length: 20 }, () => newUuid()),
        ];
        return zipSync(
          Object.fromEntries(
            uuids.map((uuid, i) => [
              `z${z}-${i}.xml`,
              strToU8(invoiceXml({ uuid, emisor: me, receptor: client, fecha: '2025-03-10T10:00:00' })),
            ]),
          ),
        );
      });
      const reports = await Promise.all(
        zips.map(async (zip, z) => {
          const form = new FormData();
          form.append('files', new File([new Uint8Array(zip)], `lote-${z}.zip`));
          const res = await fetch(`${both()[z % 2]!.url}/api/profiles/${profile.body.data.id}/cfdi`, {
            method: 'POST',
            headers: { authorization: `Bearer ${u.token}` },
            body: form,
          });
          expect([200, 201], 'nothing new stored is a 200').toContain(res.status);
          return (await res.json()).data as { imported: number; files: { status: string; code?: string }[] };
        }),
      );
      expect(reports.reduce((n, r) => n + r.imported, 0)).toBe(50);
      for (const r of reports) {
        // Once a file is refused for the quota, so is every later one of that import.
        const first = r.files.findIndex((f) => f.code === 'quota_exceeded');
        if (first >= 0) expect(r.files.slice(first).every((f) => f.code === 'quota_exceeded')).toBe(true);
      }
      const [row] =
        await sql`select used from usage_counters where user_id = ${u.id} and kind = 'cfdi_import'`;
      expect(row?.used).toBe(50);
      const [stored] = await sql`select count(*)::int as n from cfdis where user_id = ${u.id}`;
      expect(stored?.n).toBe(50);
    });

    it('login rate limit (5 per 15 min per IP and email) across both: the 6th attempt is 429 whichever process', async () => {
      const u = await freeUser();
      const ip = { 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 200) + 1}` };
      const attempt = (s: ServerProcess) =>
        call(s, 'POST', '/api/auth/login', {
          body: { email: u.email, password: 'wrong password' },
          headers: ip,
        });
      // Five wrong passwords, alternating: each one is a plain 401.
      for (let i = 0; i < 5; i++) expect((await attempt(both()[i % 2]!)).status).toBe(401);
      // The sixth is refused on either process, even with the right password.
      for (const s of both()) {
        const res = await attempt(s);
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expectErrorBody(res.body);
      }
      const right = await call(b!, 'POST', '/api/auth/login', {
        body: { email: u.email, password: u.password },
        headers: ip,
      });
      expect(right.status).toBe(429);
      // Another IP is not affected.
      const elsewhere = await call(a!, 'POST', '/api/auth/login', {
        body: { email: u.email, password: u.password },
        headers: { 'x-forwarded-for': '198.51.100.9' },
      });
      expect(elsewhere.status).toBe(200);
    });

    it('the login limit also holds when the attempts race: 12 concurrent wrong passwords on both, exactly 5 get past it', async () => {
      const u = await freeUser();
      const ip = { 'x-forwarded-for': '203.0.113.250' };
      const statuses = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const res = await call(both()[i % 2]!, 'POST', '/api/auth/login', {
            body: { email: u.email, password: 'wrong password' },
            headers: ip,
          });
          return res.status;
        }),
      );
      expect(tally(statuses)).toEqual({ 401: 5, 429: 7 });
    });

    it('one Stripe event delivered to both processes, 4 times each and concurrently, is applied exactly once', async () => {
      const u = await verifiedUser();
      const subscription = () =>
        Promise.all(both().map((s) => call(s, 'GET', '/api/subscription', { token: u.token })));
      // Checkout through one process: the customer and the session live at the shared provider.
      const created = await call(a!, 'POST', '/api/subscription/create-checkout', {
        token: u.token,
        body: { plan: 'BASIC' },
      });
      expect(created.status).toBe(201);
      const before = fake.deliveries.length;
      const paid = await fake.completeCheckout(created.body.sessionId);
      const sent = fake.deliveries.slice(before);
      // Nothing reached the processes (no target connected): the user is still FREE on both.
      expect(sent.map((d) => d.status)).toEqual(sent.map(() => 0));
      for (const res of await subscription()) {
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ plan: 'FREE', stripeSubscriptionId: null });
      }
      const event = sent.find((d) => d.event.type === 'customer.subscription.created')!.event;
      const payload = JSON.stringify(event);
      const signature = fake.sign(payload);
      const retrieve = `GET /v1/subscriptions/${paid.subscription.id}`;
      const readsBefore = fake.requests.filter((r) => r === retrieve).length;

      // The identical bytes and signature, 8 times, alternating between the processes, all at once.
      const answers = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const res = await fetch(`${both()[i % 2]!.url}/api/webhooks/stripe`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'stripe-signature': signature },
            body: payload,
          });
          return { status: res.status, body: (await res.json()) as { received?: boolean; outcome?: string } };
        }),
      );
      expect(tally(answers.map((x) => x.status))).toEqual({ 200: 8 });
      expect(tally(answers.map((x) => String(x.body.outcome)))).toEqual({ processed: 1, duplicate: 7 });
      // The one that applied it read the subscription once; a duplicate costs no provider call.
      expect(fake.requests.filter((r) => r === retrieve).length - readsBefore).toBe(1);

      const recorded = await sql`select id, type from webhook_events where id = ${event.id}`;
      expect(recorded).toEqual([{ id: event.id, type: 'customer.subscription.created' }]);
      const audits = await sql`
        select user_id, entity_id, data from audit_log
        where action = 'subscription.sync' and data -> 'source' ->> 'eventId' = ${event.id}`;
      expect(audits).toHaveLength(1);
      expect(audits[0]).toMatchObject({
        user_id: u.id,
        entity_id: paid.subscription.id,
        data: {
          source: { kind: 'webhook', eventId: event.id, eventType: 'customer.subscription.created' },
          to: { plan: 'BASIC', status: 'TRIALING' },
        },
      });
      const [syncs] =
        await sql`select count(*)::int as n from audit_log where user_id = ${u.id} and action = 'subscription.sync'`;
      expect(syncs?.n).toBe(1);

      // The subscription it wrote is what both processes now answer.
      for (const res of await subscription()) {
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          plan: 'BASIC',
          status: 'TRIALING',
          stripeSubscriptionId: paid.subscription.id,
          stripeCustomerId: paid.subscription.customer,
        });
      }
    });
  },
);
