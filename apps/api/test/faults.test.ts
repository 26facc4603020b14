/**
 * Faults (issue 8), PostgreSQL only: (a) PostgreSQL stops during traffic and comes back; (b) the
 * server is SIGKILLed in the middle of a large ZIP import and restarted.
 *
 * Both run on a throwaway PostgreSQL cluster this file starts for itself (support/own-postgres.ts):
 * stopping the shared cluster of scripts/with-postgres.sh would break the test files running on it
 * in parallel. Skipped on PGlite (no TEST_DATABASE_URL) and where the PostgreSQL binaries are missing.
 */
import { randomBytes } from 'node:crypto';
import { invoiceXml, newUuid, type Party, paymentXml } from '@folio/cfdi/testing';
import { type DbHandle, openDb } from '@folio/db';
import { strToU8, zipSync } from 'fflate';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createProfile,
  expectErrorBody,
  request,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';
import { canRunOwnPostgres, type OwnPostgres, startOwnPostgres } from './support/own-postgres';
import { call, type ServerProcess, startServer } from './support/server-process';

const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL) && canRunOwnPostgres();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const ME: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };
const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };

/** Asserts the exact error contract on a parsed body. */
function expectErrorShape(status: number, body: unknown) {
  expect(status).toBeGreaterThanOrEqual(400);
  expectErrorBody(body);
}

describe.skipIf(!ON_POSTGRES)(
  'faults (PostgreSQL only: runs under scripts/with-postgres.sh, on a cluster of its own)',
  () => {
    let pg: OwnPostgres;
    let admin: postgres.Sql;
    const databases: string[] = [];

    /** A fresh database on the own cluster. */
    async function database(): Promise<string> {
      const name = `f_${process.pid}_${randomBytes(4).toString('hex')}`;
      await admin.unsafe(`create database "${name}"`);
      databases.push(name);
      return pg.urlFor(name);
    }

    beforeAll(async () => {
      pg = await startOwnPostgres();
      admin = postgres(pg.url, { max: 1, onnotice: () => {} });
    }, 120_000);
    afterAll(async () => {
      await admin?.end({ timeout: 5 }).catch(() => {});
      await pg?.destroy();
    });

    describe('PostgreSQL stops during traffic', () => {
      let t: TestApp;
      let own: DbHandle;
      let u: TestUser;

      beforeAll(async () => {
        own = await openDb({ databaseUrl: await database(), poolMax: 5 });
        // The real app, with its database swapped for one on the cluster this test may stop.
        t = await startTestApp({ db: own.db, dbKind: own.kind, ping: own.ping });
        u = await signUp(t);
        await createProfile(t, u, {
          nombre: ME.nombre,
          rfc: ME.rfc,
          tipo_persona: 'MORAL',
          regimenes_fiscales: ['601'],
        });
      }, 120_000);
      afterAll(async () => {
        await own?.close().catch(() => {});
        await t?.close();
      });

      it('answers 500/503 in the error shape and /health 503 while it is down; the same app (same pool) serves again once it is back', async () => {
        type Phase = 'before' | 'stopping' | 'down' | 'recovering' | 'after';
        type Seen = { phase: Phase; ended: Phase; status: number; body: unknown; ms: number };
        const seen: Seen[] = [];
        let phase: Phase = 'before';
        const t0 = Date.now();
        const log = (m: string) => process.env.FAULTS_DEBUG && console.log(`${Date.now() - t0} ms: ${m}`);
        let running = true;
        const requests: [string, string, unknown?][] = [
          ['GET', '/api/profiles'],
          ['GET', '/api/auth/me'],
          ['GET', '/api/invoices?limit=5'],
          ['GET', '/api/sat/regimenes-fiscales'],
          ['POST', '/api/periods', { profile_id: ME.rfc, año: 2025, mes: 1 }],
        ];
        const worker = async (offset: number) => {
          for (let i = offset; running; i++) {
            const [method, path, body] = requests[i % requests.length]!;
            const at = phase;
            const started = Date.now();
            const res = await request(t, method, path, { headers: bearer(u.token), body });
            const json = await res.json();
            seen.push({ phase: at, ended: phase, status: res.status, body: json, ms: Date.now() - started });
            await sleep(10);
          }
        };
        const traffic = Promise.all([0, 1, 2, 3].map(worker));
        try {
          await sleep(400);
          phase = 'stopping';
          log('stopping');
          await pg.stop();
          phase = 'down';
          log('stopped');
          await sleep(1500);
          const health = await t.app.request('/health');
          log(`health ${health.status}`);
          expect(health.status).toBe(503);
          expect(await health.json()).toEqual({ status: 'unavailable', db: 'postgres' });

          await pg.start();
          log('started');
          // Poll, bounded: the pool reconnects on its own, no restart of anything.
          const deadline = Date.now() + 30_000;
          let healthy = false;
          while (!healthy && Date.now() < deadline) {
            healthy = (await t.app.request('/health')).status === 200;
            if (!healthy) await sleep(200);
          }
          expect(healthy, 'healthy again within 30 s of PostgreSQL starting').toBe(true);
          log('healthy');
          // Connections of the pool that were waiting out their retry delay may still fail a request
          // once; a burst wider than the pool gets every one of them connected again.
          phase = 'recovering';
          await Promise.all(
            Array.from({ length: 12 }, () => request(t, 'GET', '/api/auth/me', { headers: bearer(u.token) })),
          );
          phase = 'after';
          await sleep(500);
        } finally {
          running = false;
          await traffic;
        }
        log(`traffic: ${JSON.stringify(seen.map((s) => [s.phase, s.ended, s.status, s.ms]))}`);

        const down = seen.filter((s) => s.phase === 'down');
        expect(down.length).toBeGreaterThan(5);
        expect(
          down.filter((s) => s.status >= 500).length,
          'requests failed while it was down',
        ).toBeGreaterThan(0);
        for (const s of seen) {
          // A request either completes or fails as a server error; never a misleading 401/404/4xx.
          expect([200, 201, 500, 503], JSON.stringify(s)).toContain(s.status);
          if (s.status >= 500) expectErrorShape(s.status, s.body);
        }
        // Requests wholly before the stop succeeded; those in flight across it may have failed.
        const before = seen.filter((s) => s.ended === 'before');
        expect(before.length).toBeGreaterThan(0);
        expect(
          before.every((s) => s.status < 300),
          JSON.stringify(before.filter((s) => s.status >= 300)),
        ).toBe(true);
        const after = seen.filter((s) => s.phase === 'after');
        expect(after.length).toBeGreaterThan(0);
        expect(
          after.every((s) => s.status < 300),
          JSON.stringify(after.filter((s) => s.status >= 300)),
        ).toBe(true);
        // A read and a write on the same app instance, same session.
        const me = await request(t, 'GET', '/api/auth/me', { headers: bearer(u.token) });
        expect(me.status).toBe(200);
        const period = await request(t, 'POST', '/api/periods', {
          headers: bearer(u.token),
          body: { profile_id: ME.rfc, año: 2025, mes: 2 },
        });
        expect(period.status).toBe(201);
      }, 90_000);
    });

    describe('the server is killed in the middle of a large ZIP import', () => {
      const TOTAL = 3000;
      let url: string;
      let server: ServerProcess | undefined;
      let db: postgres.Sql;

      beforeAll(async () => {
        url = await database();
        db = postgres(url, { max: 2, onnotice: () => {} });
      });
      afterAll(async () => {
        await server?.kill('SIGKILL');
        await db?.end({ timeout: 5 }).catch(() => {});
      });

      /** 2,700 PPD invoices and 300 payment complements paying two of them each, interleaved. */
      function bigZip(): Uint8Array {
        const files: Record<string, Uint8Array> = {};
        const invoices: string[] = [];
        for (let i = 0; i < TOTAL; i++) {
          if (i % 10 === 9) {
            const [a, b] = [invoices.at(-9)!, invoices.at(-4)!];
            const xml = paymentXml({
              uuid: newUuid(),
              emisor: ME,
              receptor: CLIENT,
              fecha: '2025-03-20T12:00:00',
              pagos: [
                {
                  fechaPago: '2025-03-20T12:00:00',
                  doctos: [
                    { uuid: a, numParcialidad: 1, impSaldoAnt: 1160, impPagado: 500 },
                    { uuid: b, numParcialidad: 1, impSaldoAnt: 1160, impPagado: 1160 },
                  ],
                },
              ],
            });
            files[`lote/rep-${i}.xml`] = strToU8(xml);
          } else {
            const uuid = newUuid();
            invoices.push(uuid);
            files[`lote/fac-${i}.xml`] = strToU8(
              invoiceXml({
                uuid,
                emisor: ME,
                receptor: CLIENT,
                fecha: '2025-03-10T10:00:00',
                metodoPago: 'PPD',
              }),
            );
          }
        }
        return zipSync(files, { level: 6 });
      }

      const upload = (s: ServerProcess, token: string, profileId: string, zip: Uint8Array) => {
        const form = new FormData();
        form.append('files', new File([new Uint8Array(zip)], 'lote.zip'));
        return fetch(`${s.url}/api/profiles/${profileId}/cfdi`, {
          method: 'POST',
          headers: bearer(token),
          body: form,
        });
      };
      const count = async (sql: postgres.Sql, query: string) =>
        Number((await sql.unsafe(query))[0]?.n ?? Number.NaN);

      it('leaves every stored CFDI whole, and the same import re-run completes (imported + duplicates = 3,000)', async () => {
        server = await startServer({ DATABASE_URL: url });
        const email = `kill-${randomBytes(4).toString('hex')}@example.com`;
        const password = 'correct horse 1';
        expect((await call(server, 'POST', '/api/auth/register', { body: { email, password } })).status).toBe(
          201,
        );
        const login = await call(server, 'POST', '/api/auth/login', { body: { email, password } });
        expect(login.status).toBe(200);
        const token = login.body.accessToken as string;
        const userId = login.body.user.id as string;
        // PRO lifts the monthly import quota (FREE allows 50).
        await db`insert into subscriptions (user_id, plan, status) values (${userId}, 'PRO', 'ACTIVE')`;
        const profile = await call(server, 'POST', '/api/profiles', {
          token,
          body: { nombre: ME.nombre, rfc: ME.rfc, tipo_persona: 'MORAL', regimenes_fiscales: ['601'] },
        });
        expect(profile.status).toBe(201);
        const profileId = profile.body.data.id as string;
        const zip = bigZip();

        // Start the import, and SIGKILL the server once it has stored some of it.
        const first = upload(server, token, profileId, zip).then(
          (res) => `answered ${res.status}`,
          (err: Error) => `connection lost (${err.message})`,
        );
        const deadline = Date.now() + 60_000;
        let storedBeforeKill = 0;
        while (storedBeforeKill < 100 && Date.now() < deadline) {
          await sleep(25);
          storedBeforeKill = await count(db, `select count(*)::int as n from cfdis`);
        }
        await server.kill('SIGKILL');
        const outcome = await first;
        expect(outcome, 'the upload was cut off by the kill').toMatch(/connection lost/);
        const stored = await count(db, 'select count(*)::int as n from cfdis');
        expect(stored, 'the kill landed in the middle of the import').toBeGreaterThanOrEqual(100);
        expect(stored).toBeLessThan(TOTAL);

        // Restart on the same database; what is stored is whole.
        server = await startServer({ DATABASE_URL: url });
        expect(
          await count(
            db,
            'select count(*)::int as n from cfdis c where not exists (select 1 from cfdi_xml x where x.cfdi_id = c.id)',
          ),
        ).toBe(0);
        expect(
          await count(
            db,
            'select count(*)::int as n from cfdis c join cfdi_xml x on x.cfdi_id = c.id where position(c.uuid in upper(x.xml)) = 0',
          ),
          'each stored XML is the document of its row',
        ).toBe(0);
        expect(
          await count(
            db,
            `select count(*)::int as n from cfdis c where c.tipo_comprobante = 'P'
               and (select count(*) from payment_applications a where a.rep_cfdi_id = c.id) <> 2`,
          ),
          'every stored complement has both of its payment applications',
        ).toBe(0);
        expect(
          await count(
            db,
            'select count(*)::int as n from payment_applications a where not exists (select 1 from cfdis c where c.id = a.rep_cfdi_id)',
          ),
        ).toBe(0);
        expect(
          await count(
            db,
            "select coalesce(sum(used), 0)::int as n from usage_counters where kind = 'cfdi_import'",
          ),
          'the quota counted exactly the stored files (counted in the same transaction)',
        ).toBe(stored);
        // The restarted server serves the stored invoices.
        const list = await call(server, 'GET', `/api/invoices?profileId=${profileId}&limit=1`, { token });
        expect(list.status).toBe(200);

        // The same import again: everything is imported or a duplicate, nothing rejected.
        const again = await upload(server, token, profileId, zip);
        const report = (await again.json()) as {
          data: { imported: number; duplicates: number; rejected: number };
        };
        expect(again.status, JSON.stringify(report).slice(0, 500)).toBe(201);
        expect(report.data).toMatchObject({ imported: TOTAL - stored, duplicates: stored, rejected: 0 });
        expect(report.data.imported + report.data.duplicates).toBe(TOTAL);
        expect(await count(db, 'select count(*)::int as n from cfdis')).toBe(TOTAL);
        expect(await count(db, 'select count(*)::int as n from payment_applications')).toBe(2 * (TOTAL / 10));
      }, 240_000);
    });
  },
);
