// Where a report is computed (services/reports/off-thread.ts, issue 30). On PostgreSQL in a worker
// thread that reads on connections of its own: the server's connections carry none of the report's
// rows, and the worker pool's limits answer 503 report_busy / report_timeout with Retry-After. On
// PGlite (the database lives on the event loop) the server computes it. The figures are the same
// either way: the tax reports' own tests run on both databases.
import { round2 } from '@folio/cfdi';
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imported } from './cfdi-helpers';
import {
  bearer,
  createProfile,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
  trpcClient,
} from './harness';

const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
const ME: Party = { rfc: 'GOMA800101AB6', nombre: 'Ana Gómez', regimen: '626' };
const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };

let t: TestApp;
let u: TestUser;
let profileId: string;
/** Every statement the server's own connections ran. */
const statements: string[] = [];

beforeAll(async () => {
  t = await startTestApp({}, { logQuery: (q) => statements.push(q) });
  u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  profileId = (
    await createProfile(t, u, {
      nombre: ME.nombre,
      rfc: ME.rfc,
      tipo_persona: 'FISICA',
      regimenes_fiscales: ['626'],
    })
  ).id;
  // Two PUE sales in March 2025: 1,000.00 and 2,500.00, each + 16 % IVA.
  for (const importe of [1000, 2500]) {
    await imported(
      t,
      u,
      profileId,
      invoiceXml({
        uuid: newUuid(),
        emisor: ME,
        receptor: CLIENT,
        fecha: '2025-03-10T10:00:00',
        conceptos: [{ descripcion: 'Diseño', importe }],
      }),
    );
  }
});
afterAll(() => t?.close());

const monthlyPath = `/api/reports/monthly?profileId=${ME.rfc}&año=2025&mes=3`;
/** A statement of the report's rows (db/queries/reports.ts reads the CFDI under the alias c). */
const readsReportRows = (q: string) => /from cfdis c\b/.test(q);

describe('a report is computed off the event loop on PostgreSQL', () => {
  it(`the monthly report's rows are read on ${ON_POSTGRES ? "the worker's own connection" : "the server's connection (PGlite)"}; REST and tRPC give the same figures`, async () => {
    statements.length = 0;
    const res = await request(t, 'GET', monthlyPath, { headers: bearer(u.token) });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    // tax-rules §2: income of the month, each sale's subtotal + 16 % IVA.
    const total = round2(1000 * 1.16 + 2500 * 1.16);
    expect(data.ingresos).toMatchObject({ documentos: 2, subtotal: 3500, total });
    expect(statements.some(readsReportRows)).toBe(!ON_POSTGRES);
    const viaTrpc = await trpcClient(t, u.token).reports.monthly.query({ profileId, año: 2025, mes: 3 });
    expect(viaTrpc).toEqual({ data });
  });

  it('the annual report: the same twelve months from the worker', async () => {
    const res = await request(t, 'GET', `/api/reports/annual?profileId=${profileId}&año=2025`, {
      headers: bearer(u.token),
    });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.meses).toHaveLength(12);
    expect(data.meses[2].ingresos.total).toBe(round2(3500 * 1.16));
    expect(data.totales.ingresos.total).toBe(round2(3500 * 1.16));
  });

  // REST's JSON of a report is written as text where the report is computed (report-body.ts); the
  // procedure's answer goes through tRPC's output check. Both must be the same document.
  it.each([
    ['monthly', 'año=2025&mes=3'],
    ['annual', 'año=2025&format=json'],
    ['diot', 'año=2025&mes=3'],
  ] as const)('REST answers the %s report as the procedure does, byte for byte', async (kind, query) => {
    const path = `/api/reports/${kind}?profileId=${profileId}&${query}`;
    const res = await request(t, 'GET', path, { headers: bearer(u.token) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const reports = trpcClient(t, u.token).reports;
    const viaTrpc =
      kind === 'annual'
        ? await reports.annual.query({ profileId, año: 2025 })
        : await reports[kind].query({ profileId, año: 2025, mes: 3 });
    expect(await res.text()).toBe(JSON.stringify(viaTrpc));
  });
});

describe.skipIf(!ON_POSTGRES)('the report workers’ limits (PostgreSQL)', () => {
  let limited: TestApp;
  afterAll(() => limited?.close());

  const withLimits = async (reportWorkers: Record<string, number>) => {
    await limited?.close();
    limited = await startTestApp({
      db: t.deps.db,
      databaseUrl: t.deps.databaseUrl,
      config: { ...t.deps.config, reportWorkers },
    });
    return (path: string) => request(limited, 'GET', path, { headers: bearer(u.token) });
  };

  it('one report at a time and none waiting: a second one asked meanwhile → 503 report_busy, Retry-After 5; then served again', async () => {
    // A heap cap no other test uses: a pool of its own, whose worker thread starts with the first
    // report (hundreds of ms under tsx), so the second arrives while the first is running. In the
    // pool of the default shape the worker is warm, and the first report could end before the
    // second one asked.
    const get = await withLimits({ concurrency: 1, queue: 0, memoryMb: 255 });
    const [first, second] = await Promise.all([get(monthlyPath), get(monthlyPath)]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 503]);
    const refused = first.status === 503 ? first : second;
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ error: 'Service Unavailable', code: 'report_busy' });
    expect((await get(monthlyPath)).status).toBe(200);
  });

  it('a report out of time → 503 report_timeout, Retry-After the limit in seconds', async () => {
    const get = await withLimits({ timeoutMs: 1 });
    const res = await get(monthlyPath);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toMatchObject({ error: 'Service Unavailable', code: 'report_timeout' });
  });
});
