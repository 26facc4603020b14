// SAT sync jobs (integrations.md §1 "Sync jobs", issue 28) against the simulator mounted in the real
// app: the job runs on the job queue through the real @nodecfdi clients, imports through the one
// import path and the metadata import, and survives SAT's failures and answers and a queue stopped
// mid-job. Touches the database: run on both.
import { randomUUID } from 'node:crypto';
import { type AppJobRunner, createContext, type Deps, type Principal } from '@folio/api';
import {
  createSyncJob,
  enqueueDailySyncs,
  enqueueMissingCfdi,
  type FetchLike,
  getSyncJob,
  listSyncJobs,
  type SyncJobAnswer,
  type SyncJobInput,
  storeEfirma,
  syncQueues,
} from '@folio/api/sat-sync';
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { rowsOf } from '@folio/db';
import { findUserByEmail } from '@folio/db/queries/users';
import { auditLog, efirmas, emailOutbox, outgoingEvents, satSyncJobs } from '@folio/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getJson, imported } from './cfdi-helpers';
import {
  bearer,
  createProfile,
  request,
  rfcMoral,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
  testConfig,
} from './harness';
import { FAST_SYNC, simulatorInApp, startSyncRunner } from './sync-runner';

const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };
const OTHER: Party = { rfc: 'PAPE900101AA1', nombre: 'Papelería Ñandú', regimen: '612' };
/** A fixed clock for the periods (the simulator's e.firmas are valid around the real one). */
const NOW = new Date('2026-11-25T18:00:00Z');
const MARCH: Pick<SyncJobInput, 'desde' | 'hasta'> = { desde: '2025-03-01', hasta: '2025-03-31' };
const ALL: SyncJobInput = { ...MARCH, tipo: 'ambos', contenido: 'ambos' };

let t: TestApp;
const runners: AppJobRunner[] = [];
/**
 * Answers SAT's simulator never gives on request (304/305, estado 4): a test rewrites the next
 * answers of one service (the path's end), for the calls whose body holds `body` (an RFC), that the
 * edit changes, as they come back.
 */
const rewrites: { path: string; body?: string; times: number; edit: (xml: string) => string }[] = [];
/** Every SAT call the jobs made: the service's URL and the signed request. */
const satCalls: { url: string; body: string }[] = [];
/** SAT calls to one service (the path's end) whose request holds `needle` (an RFC, a package id). */
const callsTo = (path: string, needle: string) =>
  satCalls.filter((c) => c.url.endsWith(path) && c.body.includes(needle));
/** Every SAT request (solicitud) that reached the simulator: who asked, what and for which period. */
const solicitudes: { rfc: string; direction: string; content: string; desde: string; hasta: string }[] = [];
function recordSolicitud(body: string) {
  const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(body)?.[1] ?? '';
  solicitudes.push({
    rfc: attr('RfcSolicitante'),
    direction: /SolicitaDescargaRecibidos/.test(body) ? 'recibidos' : 'emitidos',
    content: attr('TipoSolicitud'),
    desde: attr('FechaInicial'),
    hasta: attr('FechaFinal'),
  });
}
/** The certificates SAT's authentication received (DER as latin1: the RFC shows in the subject). */
const signIns: string[] = [];
function recordSignIn(body: string) {
  const cer = /BinarySecurityToken[^>]*>([^<]+)</.exec(body)?.[1] ?? '';
  signIns.push(Buffer.from(cer, 'base64').toString('latin1'));
}
const inApp: FetchLike = async (url, init) => {
  const body = typeof init.body === 'string' ? init.body : '';
  satCalls.push({ url, body });
  if (url.endsWith('/ws/solicitud')) recordSolicitud(body);
  if (url.endsWith('/ws/autenticacion')) recordSignIn(body);
  const res = await t.app.request(url, init);
  const rule = rewrites.find(
    (r) => url.endsWith(r.path) && r.times > 0 && (r.body === undefined || body.includes(r.body)),
  );
  if (!rule) return res;
  const text = await res.text();
  const edited = rule.edit(text);
  if (edited !== text) rule.times--; // only answers the edit applies to count
  return new Response(edited, { status: res.status, headers: res.headers });
};
const sat = simulatorInApp(() => t, inApp);

/** Seconds before each verification: none (FAST_SYNC) unless a test wants a job caught waiting. */
let pollDelay = 0;
/** The sync's clock (SyncTiming.now): the real one unless a test sets `at`. */
const clock: { at?: Date } = {};
const timing = { ...FAST_SYNC, pollDelaySeconds: () => pollDelay, now: () => clock.at ?? new Date() };

/** A server's job runner with the sync's workers. */
async function startRunner(): Promise<AppJobRunner> {
  const runner = await startSyncRunner(t, timing);
  runners.push(runner);
  return runner;
}
async function stopRunner(r: AppJobRunner) {
  await r.stop();
  runners.splice(runners.indexOf(r), 1);
}

beforeAll(async () => {
  t = await startTestApp({ config: { ...testConfig, sat } });
  await startRunner();
});
afterAll(async () => {
  for (const r of runners) await r.stop();
  await t.close();
});
afterEach(() => {
  pollDelay = 0; // a test that waits leaves the next ones none
});

const ctx = () =>
  createContext(t.deps as unknown as Deps, {
    requestId: randomUUID(),
    token: null,
    tokenSource: null,
    method: 'POST',
    origin: null,
    ip: '198.51.100.7',
    idempotencyKey: null,
    resHeaders: new Headers(),
  });

interface Owner {
  u: TestUser;
  me: Party;
  profileId: string;
  principal: Principal;
}

/** A user on `plan` with a profile for `rfc`; with `efirma`, the simulator's e.firma stored for it. */
async function owner(rfc: string, plan: 'FREE' | 'BASIC' | 'PRO' = 'PRO', efirma = true): Promise<Owner> {
  const u = await signUp(t);
  if (plan !== 'FREE') await setPlan(t, u.id, plan);
  const me: Party = { rfc, nombre: 'Comercial Sincronizada', regimen: '601' };
  const profile = await createProfile(t, u, {
    nombre: me.nombre,
    rfc,
    tipo_persona: 'MORAL',
    regimenes_fiscales: ['601'],
  });
  const user = await findUserByEmail(t.handle.db, u.email);
  const principal: Principal = { user: user!, via: 'session', scope: 'write', session: null, apiKeyId: null };
  const o = { u, me, profileId: profile.id, principal };
  if (efirma) await storeSimulatorEfirma(o);
  return o;
}

/** A new e.firma from the simulator, stored for the owner's profile (replacing the one it had). */
async function storeSimulatorEfirma(o: Owner) {
  const res = await request(t, 'POST', '/__dev/sat/efirma', { body: { rfc: o.me.rfc } });
  const e = ((await res.json()) as { data: { cer: string; key: string; password: string } }).data;
  const upload = {
    cer: Buffer.from(e.cer, 'base64'),
    key: Buffer.from(e.key, 'base64'),
    password: e.password,
    consentimiento: true,
  };
  await storeEfirma(ctx(), o.principal, o.profileId, upload);
}

async function place(rfc: string, xml: string, query = '') {
  const res = await t.app.request(`/__dev/sat/${rfc}/cfdi${query}`, { method: 'POST', body: xml });
  expect(res.status).toBe(201);
}
const sale = (uuid: string, fecha: string, from: Party, to: Party) =>
  invoiceXml({ uuid, emisor: from, receptor: to, fecha, metodoPago: 'PUE' });

/** The daily CFDI follow-up of the profile, once its metadata job has enqueued it. */
const followUp = (o: Owner) =>
  vi.waitFor(
    async () => {
      const [j] = await t.handle.db
        .select()
        .from(satSyncJobs)
        .where(and(eq(satSyncJobs.profileId, o.profileId), eq(satSyncJobs.contenido, 'cfdi')));
      if (!j) throw new Error('no CFDI job yet');
      return j;
    },
    { timeout: 30_000, interval: 200 },
  );

const sync = (o: Owner, input: SyncJobInput = ALL) =>
  createSyncJob(ctx(), o.principal, o.profileId, input, NOW);

/** Waits (no time asserted) until the job ends, and answers it. */
async function ended(o: Owner, id: string): Promise<SyncJobAnswer> {
  return vi.waitFor(
    async () => {
      const job = await getSyncJob(ctx(), o.principal, id);
      if (job.estado !== 'terminada' && job.estado !== 'error') throw new Error(`still ${job.estado}`);
      return job;
    },
    { timeout: 60_000, interval: 20 },
  );
}

/**
 * What the simulator holds for `me`: issued in March A (vigente) and B (cancelled on SAT), and C in
 * April (outside the period); received in March R (vigente) and X (cancelled, so not in the CFDI
 * package: received CFDI are asked Vigente).
 */
async function seed(me: Party) {
  const u = { a: newUuid(), b: newUuid(), c: newUuid(), r: newUuid(), x: newUuid() };
  await place(me.rfc, sale(u.a, '2025-03-10T10:00:00', me, CLIENT));
  await place(me.rfc, sale(u.b, '2025-03-31T23:00:00', me, CLIENT));
  await place(me.rfc, sale(u.c, '2025-04-01T00:00:00', me, CLIENT));
  await place(me.rfc, sale(u.r, '2025-03-01T00:00:00', CLIENT, me));
  await place(
    me.rfc,
    sale(u.x, '2025-03-15T12:00:00', OTHER, me),
    '?estatus=cancelado&fecha_cancelacion=2025-04-02',
  );
  const cancel = await t.app.request(`/__dev/sat/${me.rfc}/cancel/${u.b}?fecha_cancelacion=2025-04-05`, {
    method: 'POST',
  });
  expect(cancel.status).toBe(200);
  return u;
}

describe('a sync job against the simulator', () => {
  it('a full sync (emitidos + recibidos, cfdi + metadata) imports exactly the CFDI SAT holds for the period, applies the metadata and lists the missing XML; a second sync imports nothing new', async () => {
    const o = await owner(rfcMoral(101));
    const u = await seed(o.me);
    const created = await sync(o);
    expect(created).toEqual({ id: expect.any(String), estado: 'pendiente' });
    const job = await ended(o, created.id);
    expect(job.estado).toBe('terminada');
    // One request per direction × content, each accepted by SAT (5000) and imported.
    expect(job.solicitudes).toHaveLength(4);
    expect(job.solicitudes.every((s) => s.estado === 'importada' && s.id)).toBe(true);
    // CFDI: A and B issued, R received (X is cancelled: recibidos are asked Vigente; C is April).
    expect(job.cfdi).toEqual({ importados: 3, duplicados: 0, rechazados: 0, fuera_de_cuota: 0 });
    // Metadata: A, R vigentes; B, X cancelados; X has no XML in Folio (imported after the CFDI).
    expect(job.metadata).toEqual({ vigentes: 2, cancelados: 2, faltantes: 1 });
    const invoices = await getJson(t, o.u, `/api/invoices?profileId=${o.profileId}&limit=50`);
    const byUuid = new Map(invoices.data.map((i: { uuid: string }) => [i.uuid, i]));
    expect([...byUuid.keys()].sort()).toEqual([u.a, u.b].sort());
    expect(byUuid.get(u.b)).toMatchObject({ estatus_sat: 'cancelado', estatus_fuente: 'metadata' });
    expect(byUuid.get(u.a)).toMatchObject({ estatus_sat: 'vigente' });
    const missing = await getJson(t, o.u, `/api/profiles/${o.profileId}/sat-metadata/missing?año=2025&mes=3`);
    expect(missing.data.map((m: { uuid: string }) => m.uuid)).toEqual([u.x]);

    const again = await ended(o, (await sync(o)).id);
    expect(again.estado).toBe('terminada');
    expect(again.cfdi).toEqual({ importados: 0, duplicados: 3, rechazados: 0, fuera_de_cuota: 0 });
    const list = await listSyncJobs(ctx(), o.principal, o.profileId);
    expect(list.map((j) => j.id)).toEqual([again.id, job.id]);
  });

  it('a cancellation on SAT after the first sync ends as estatus_sat cancelado and leaves the monthly report', async () => {
    const o = await owner(rfcMoral(102));
    const a = newUuid();
    await place(o.me.rfc, sale(a, '2025-03-10T10:00:00', o.me, CLIENT));
    await ended(o, (await sync(o, { ...MARCH, tipo: 'emitidos', contenido: 'ambos' })).id);
    const monthly = () => getJson(t, o.u, `/api/reports/monthly?profileId=${o.profileId}&año=2025&mes=3`);
    expect((await monthly()).data.ingresos.documentos).toBe(1);
    await t.app.request(`/__dev/sat/${o.me.rfc}/cancel/${a}?fecha_cancelacion=2025-04-02`, {
      method: 'POST',
    });
    const job = await ended(o, (await sync(o, { ...MARCH, tipo: 'emitidos', contenido: 'metadata' })).id);
    expect(job.metadata).toEqual({ vigentes: 0, cancelados: 1, faltantes: 0 });
    const inv = await getJson(t, o.u, `/api/invoices?profileId=${o.profileId}&limit=50`);
    expect(inv.data[0]).toMatchObject({ uuid: a, estatus_sat: 'cancelado' });
    expect((await monthly()).data.ingresos.documentos).toBe(0);
  });

  it('a CFDI still desconocido after the metadata is asked to the status service (fuente consulta)', async () => {
    const o = await owner(rfcMoral(103));
    const a = newUuid();
    await place(o.me.rfc, sale(a, '2025-03-10T10:00:00', o.me, CLIENT));
    // CFDI only: no metadata speaks for A, so the job asks SAT's status service.
    const job = await ended(o, (await sync(o, { ...MARCH, tipo: 'emitidos', contenido: 'cfdi' })).id);
    expect(job.cfdi.importados).toBe(1);
    const inv = await getJson(t, o.u, `/api/invoices?profileId=${o.profileId}&limit=50`);
    expect(inv.data[0]).toMatchObject({ uuid: a, estatus_sat: 'vigente', estatus_fuente: 'consulta' });
  });

  it('SAT failing once (HTTP 503) is retried through the queue and the job still ends terminada', async () => {
    const o = await owner(rfcMoral(104));
    await place(o.me.rfc, sale(newUuid(), '2025-03-10T10:00:00', o.me, CLIENT));
    await request(t, 'POST', '/__dev/sat/fail-next');
    const job = await ended(o, (await sync(o, { ...MARCH, tipo: 'emitidos', contenido: 'cfdi' })).id);
    expect(job.estado).toBe('terminada');
    expect(job.cfdi.importados).toBe(1);
  });

  it('5003 (too many records): the period is halved and both halves requested; what they hold is imported once', async () => {
    const o = await owner(rfcMoral(105));
    const early = newUuid();
    const late = newUuid();
    await place(o.me.rfc, sale(early, '2025-03-02T10:00:00', o.me, CLIENT));
    await place(o.me.rfc, sale(late, '2025-03-30T10:00:00', o.me, CLIENT));
    await request(t, 'POST', '/__dev/sat/next-answer', { body: { code: '5003' } });
    const job = await ended(o, (await sync(o, { ...MARCH, tipo: 'emitidos', contenido: 'cfdi' })).id);
    expect(job.estado).toBe('terminada');
    // March has 31 days: 1–16 and 17–31 (the first half takes floor(30 / 2) = 15 days after the 1st).
    expect(job.solicitudes.map((s) => [s.desde, s.hasta, s.estado])).toEqual([
      ['2025-03-01', '2025-03-31', 'dividida'],
      ['2025-03-01', '2025-03-16', 'importada'],
      ['2025-03-17', '2025-03-31', 'importada'],
    ]);
    expect(job.cfdi.importados).toBe(2);
  });

  it('5004 (nothing in the period): the job ends terminada with zeros', async () => {
    const o = await owner(rfcMoral(106));
    const job = await ended(o, (await sync(o, { ...MARCH, tipo: 'recibidos', contenido: 'metadata' })).id);
    expect(job.estado).toBe('terminada');
    expect(job.solicitudes.map((s) => s.estado)).toEqual(['vacia']);
    expect(job.cfdi).toEqual({ importados: 0, duplicados: 0, rechazados: 0, fuera_de_cuota: 0 });
    expect(job.metadata).toEqual({ vigentes: 0, cancelados: 0, faltantes: 0 });
  });

  it('the end of a job is a webhook event in the same transaction: sat_sync.completed, or sat_sync.failed with the reason', async () => {
    const o = await owner(rfcMoral(121));
    const hook = await request(t, 'POST', '/api/webhook-endpoints', {
      headers: bearer(o.u.token),
      body: { url: 'http://127.0.0.1:9/hooks', eventos: ['sat_sync.completed', 'sat_sync.failed'] },
    });
    expect(hook.status).toBe(201);
    const eventsOf = async (type: string) =>
      (await t.handle.db.select().from(outgoingEvents).where(eq(outgoingEvents.type, type))).filter(
        (e) => (e.data as { profile_id?: string }).profile_id === o.profileId,
      );
    const done = await ended(o, (await sync(o, { ...MARCH, tipo: 'recibidos', contenido: 'metadata' })).id);
    const [completed] = await eventsOf('sat_sync.completed');
    expect(completed?.data).toMatchObject({ sync_id: done.id, profile_id: o.profileId });
    // A job SAT refuses (305: the e.firma is not valid for it) ends `error`, and says so to the endpoint.
    rewrites.push({
      path: '/ws/solicitud',
      times: 1,
      edit: (x) => x.replace(/CodEstatus="5000"/, 'CodEstatus="305"'),
    });
    const failed = await ended(o, (await sync(o, { ...MARCH, tipo: 'emitidos', contenido: 'metadata' })).id);
    expect(failed.estado).toBe('error');
    const [event] = await eventsOf('sat_sync.failed');
    expect(event?.data).toMatchObject({ sync_id: failed.id, error: failed.error });
  });

  it('5005 (an identical request is alive): the stored request id of that request is reused', async () => {
    const o = await owner(rfcMoral(107));
    await place(o.me.rfc, sale(newUuid(), '2025-03-10T10:00:00', o.me, CLIENT));
    const input: SyncJobInput = { ...MARCH, tipo: 'emitidos', contenido: 'metadata' };
    const first = await ended(o, (await sync(o, input)).id);
    await request(t, 'POST', '/__dev/sat/next-answer', { body: { code: '5005' } });
    const second = await ended(o, (await sync(o, input)).id);
    expect(second.estado).toBe('terminada');
    expect(second.solicitudes[0]!.id).toBe(first.solicitudes[0]!.id);
    expect(second.metadata.vigentes).toBe(1);
  });

  it.each(['5002', '5005'])(
    '%s with no live request of ours to reuse: the start moves one second earlier and SAT is asked again',
    async (code) => {
      const o = await owner(rfcMoral(code === '5002' ? 108 : 111));
      await place(o.me.rfc, sale(newUuid(), '2025-03-10T10:00:00', o.me, CLIENT));
      await request(t, 'POST', '/__dev/sat/next-answer', { body: { code } });
      const job = await ended(o, (await sync(o, { ...MARCH, tipo: 'emitidos', contenido: 'cfdi' })).id);
      expect(job.estado).toBe('terminada');
      // Asked twice: the refused request, then the one shifted by a second.
      expect(job.solicitudes[0]).toMatchObject({ intentos: 2, estado: 'importada' });
      expect(job.cfdi.importados).toBe(1);
    },
  );

  it('a job whose queue stops mid-job finishes on a new queue over the same data, its imports counted once', async () => {
    const o = await owner(rfcMoral(109));
    await place(o.me.rfc, sale(newUuid(), '2025-03-10T10:00:00', o.me, CLIENT));
    await place(o.me.rfc, sale(newUuid(), '2025-03-11T10:00:00', CLIENT, o.me));
    const [first] = runners;
    // Long enough a wait for the queue to be stopped while the job waits for its next verification.
    pollDelay = 2;
    const { id } = await sync(o);
    // Stopped once SAT has the requests (the job waits for its next verification).
    await vi.waitFor(
      async () => {
        const j = await getSyncJob(ctx(), o.principal, id);
        if (j.estado === 'pendiente') throw new Error('not started');
      },
      { timeout: 30_000, interval: 50 },
    );
    await stopRunner(first!);
    // Stopped mid-job: requested, not ended.
    expect((await getSyncJob(ctx(), o.principal, id)).estado).not.toMatch(/terminada|error/);
    pollDelay = 0;
    await startRunner();
    const job = await ended(o, id);
    expect(job.estado).toBe('terminada');
    expect(job.cfdi).toEqual({ importados: 2, duplicados: 0, rechazados: 0, fuera_de_cuota: 0 });
  });

  it('on PostgreSQL two queue instances run one job once', async (ctxTest) => {
    if (t.handle.kind !== 'postgres') ctxTest.skip();
    const o = await owner(rfcMoral(110));
    await place(o.me.rfc, sale(newUuid(), '2025-03-10T10:00:00', o.me, CLIENT));
    await startRunner();
    const job = await ended(o, (await sync(o)).id);
    expect(job.cfdi).toEqual({ importados: 1, duplicados: 0, rechazados: 0, fuera_de_cuota: 0 });
    expect(job.metadata).toEqual({ vigentes: 1, cancelados: 0, faltantes: 0 });
  });
});

describe('SAT refusing', () => {
  it('304/305 (the e.firma is not valid for SAT): the job ends error, the e.firma is marked and its owner mailed once; new jobs are refused', async () => {
    const o = await owner(rfcMoral(150));
    rewrites.push({
      path: '/ws/solicitud',
      times: 1,
      edit: (x) => x.replace(/CodEstatus="5000"/, 'CodEstatus="305"'),
    });
    const job = await ended(o, (await sync(o, { ...MARCH, tipo: 'emitidos', contenido: 'metadata' })).id);
    expect(job).toMatchObject({ estado: 'error', error: expect.stringContaining('e.firma') });
    expect(job.solicitudes[0]).toMatchObject({ codigo: 305, estado: 'error' });
    const mails = await t.handle.db.select().from(emailOutbox).where(eq(emailOutbox.to, o.u.email));
    const refused = mails.filter((m) => m.kind === 'sat-efirma-refused');
    expect(refused.map((m) => m.subject)).toEqual(['SAT rechazó tu e.firma']);
    expect(refused[0]!.text).toContain(`e.firma del RFC ${o.me.rfc} que guardaste en Folio (código 305)`);
    await expect(sync(o)).rejects.toMatchObject({ code: 'CONFLICT', reason: 'efirma_unusable' });
  });

  it('verification estado 4 (error): asked again once; a second 4 ends the job error', async () => {
    const o = await owner(rfcMoral(151));
    await place(o.me.rfc, sale(newUuid(), '2025-03-10T10:00:00', o.me, CLIENT));
    const toError = (x: string) => x.replace(/EstadoSolicitud="3"/, 'EstadoSolicitud="4"');
    rewrites.push({ path: '/ws/verificacion', times: 2, edit: toError });
    const failed = await ended(o, (await sync(o, { ...MARCH, tipo: 'emitidos', contenido: 'cfdi' })).id);
    // Each request's "finished" becomes 4: the first request's, then the one asked again.
    expect(failed.estado).toBe('error');
    expect(failed.solicitudes[0]).toMatchObject({ intentos: 2, estado: 'error' });
    expect(rewrites.at(-1)!.times).toBe(0);
  });

  it('verification estado 4 once: asked again, and the second request is imported', async () => {
    const o = await owner(rfcMoral(152));
    await place(o.me.rfc, sale(newUuid(), '2025-03-10T10:00:00', o.me, CLIENT));
    rewrites.push({
      path: '/ws/verificacion',
      times: 1,
      edit: (x) => x.replace(/EstadoSolicitud="3"/, 'EstadoSolicitud="4"'),
    });
    const job = await ended(o, (await sync(o, { ...MARCH, tipo: 'emitidos', contenido: 'cfdi' })).id);
    expect(job.estado).toBe('terminada');
    expect(job.solicitudes[0]).toMatchObject({ intentos: 2, estado: 'importada' });
    expect(job.cfdi.importados).toBe(1);
  });
});

describe('SAT\'s answers, each branch (integrations.md §1 "SAT\'s rules")', () => {
  afterEach(async () => {
    clock.at = undefined;
    await request(t, 'POST', '/__dev/sat/package-size', { body: { size: null } });
  });

  const EMITIDOS_CFDI: SyncJobInput = { ...MARCH, tipo: 'emitidos', contenido: 'cfdi' };
  /** The job's runs on the queue (pg-boss's rows): each `sat.sync` step, its state and retries. */
  const queueRunsOf = async (jobId: string) =>
    rowsOf<{ id: string; state: string; retry_count: number; start_after: Date | string }>(
      await t.handle.db.execute(
        sql`select id, state, retry_count, start_after from pgboss.job where name = 'sat.sync' and data->>'jobId' = ${jobId} order by created_on`,
      ),
    );
  const toCode = (code: string) => (x: string) => x.replace('CodEstatus="5000"', `CodEstatus="${code}"`);

  it.each(['request', 'verification'])(
    '5011 (the daily limit) on the %s: the job waits for SAT’s next day in its queue, not error, its state visible; then SAT is asked again and the job ends',
    async (where) => {
      const o = await owner(rfcMoral(where === 'request' ? 160 : 161));
      await place(o.me.rfc, sale(newUuid(), '2025-03-10T10:00:00', o.me, CLIENT));
      // 2026-11-25T18:00Z is 12:00 in Mexico City (UTC−6): SAT's next day starts in 12 h, and the
      // job looks again 5 minutes after it: 12 × 3600 + 5 × 60 = 43,500 s.
      clock.at = NOW;
      const waitSeconds = 12 * 3600 + 5 * 60;
      if (where === 'request') await request(t, 'POST', '/__dev/sat/next-answer', { body: { code: '5011' } });
      else rewrites.push({ path: '/ws/verificacion', body: o.me.rfc, times: 1, edit: toCode('5011') });
      const before = Date.now();
      const { id } = await sync(o, EMITIDOS_CFDI);
      const later = await vi.waitFor(
        async () => {
          const run = (await queueRunsOf(id)).find((r) => r.state === 'created');
          const at = run && new Date(run.start_after).getTime();
          if (!run || !at || at < Date.now() + 3600_000) throw new Error('no step waiting for tomorrow');
          return { ...run, at };
        },
        { timeout: 30_000, interval: 100 },
      );
      // The queue's clock counts from the enqueue, between `before` and now (a second's slack).
      expect(later.at).toBeGreaterThanOrEqual(before + waitSeconds * 1000 - 1000);
      expect(later.at).toBeLessThanOrEqual(Date.now() + waitSeconds * 1000 + 1000);
      const waiting = (await getJson(t, o.u, `/api/sat-sync/${id}`)).data;
      expect(waiting.estado).toBe('solicitada');
      expect(waiting.error).toBeUndefined();
      expect(waiting.solicitudes).toMatchObject([{ codigo: 5011, estado: 'pendiente', id: null }]);
      // SAT's next day comes (the queued step's time is moved to now): asked again, imported.
      await t.handle.db.execute(sql`update pgboss.job set start_after = now() where id = ${later.id}::uuid`);
      runners[0]!.queue.wake('sat.sync');
      const job = await ended(o, id);
      expect(job.estado).toBe('terminada');
      expect(job.solicitudes).toMatchObject([{ intentos: 2, estado: 'importada', codigo: 5000 }]);
      expect(job.cfdi.importados).toBe(1);
    },
  );

  it('a request still in progress 96 hours after SAT accepted it is asked again: a new SAT request id', async () => {
    const o = await owner(rfcMoral(162));
    await place(o.me.rfc, sale(newUuid(), '2025-03-10T10:00:00', o.me, CLIENT));
    // At the first verification the clock moves 97 hours on: the request SAT accepted (and the
    // simulator still has "in progress") is then older than 96 hours.
    rewrites.push({
      path: '/ws/verificacion',
      body: o.me.rfc,
      times: 1,
      edit: (x) => {
        clock.at ??= new Date(Date.now() + 97 * 3600_000);
        return x;
      },
    });
    const job = await ended(o, (await sync(o, EMITIDOS_CFDI)).id);
    expect(job.estado).toBe('terminada');
    const verified = callsTo('/ws/verificacion', o.me.rfc).map(
      (c) => /IdSolicitud="([^"]+)"/.exec(c.body)?.[1],
    );
    const [first] = verified;
    expect(first).toEqual(expect.any(String));
    expect(job.solicitudes).toMatchObject([{ intentos: 2, estado: 'importada' }]);
    expect(job.solicitudes[0]!.id).not.toBe(first);
    expect(verified.at(-1)).toBe(job.solicitudes[0]!.id);
    expect(callsTo('/ws/solicitud', o.me.rfc)).toHaveLength(2);
    expect(job.cfdi.importados).toBe(1);
  });

  it('300–303 and 5001 are permanent: the job ends error naming the code after one request, never retried', async () => {
    const o = await owner(rfcMoral(163));
    await place(o.me.rfc, sale(newUuid(), '2025-03-10T10:00:00', o.me, CLIENT));
    for (const code of ['300', '301', '302', '303', '5001']) {
      await request(t, 'POST', '/__dev/sat/next-answer', { body: { code } });
      const asked = callsTo('/ws/solicitud', o.me.rfc).length;
      const job = await ended(o, (await sync(o, EMITIDOS_CFDI)).id);
      expect(job).toMatchObject({ estado: 'error', error: expect.stringContaining(`(${code})`) });
      expect(job.solicitudes).toMatchObject([{ codigo: Number(code), estado: 'error', intentos: 1 }]);
      // One SAT request and nothing after it; the queue ran the job's step once, without a retry.
      expect(callsTo('/ws/solicitud', o.me.rfc).length - asked).toBe(1);
      const runs = await vi.waitFor(async () => {
        const rows = await queueRunsOf(job.id);
        if (rows.some((r) => r.state !== 'completed')) throw new Error('still running');
        return rows;
      });
      expect(runs.map((r) => [r.state, r.retry_count])).toEqual([['completed', 0]]);
    }
    expect(callsTo('/ws/verificacion', o.me.rfc)).toEqual([]);
  });

  it('404 on a request is transient (as 5006 and HTTP 5xx): the queue retries the step and the job ends terminada', async () => {
    const o = await owner(rfcMoral(164));
    await place(o.me.rfc, sale(newUuid(), '2025-03-10T10:00:00', o.me, CLIENT));
    await request(t, 'POST', '/__dev/sat/next-answer', { body: { code: '404' } });
    const job = await ended(o, (await sync(o, EMITIDOS_CFDI)).id);
    expect(job.estado).toBe('terminada');
    expect(callsTo('/ws/solicitud', o.me.rfc)).toHaveLength(2);
    expect((await queueRunsOf(job.id))[0]).toMatchObject({ retry_count: 1 });
    expect(job.cfdi.importados).toBe(1);
  });

  it('verification estado 6 (expired): SAT is asked again and the new request is imported', async () => {
    const o = await owner(rfcMoral(166));
    await place(o.me.rfc, sale(newUuid(), '2025-03-10T10:00:00', o.me, CLIENT));
    await request(t, 'POST', '/__dev/sat/next-answer', { body: { code: 'expired' } });
    const job = await ended(o, (await sync(o, EMITIDOS_CFDI)).id);
    expect(job.estado).toBe('terminada');
    expect(job.solicitudes).toMatchObject([{ intentos: 2, estado: 'importada' }]);
    expect(callsTo('/ws/solicitud', o.me.rfc)).toHaveLength(2);
    expect(job.cfdi.importados).toBe(1);
  });

  /** Two CFDI for `o` in March, each in its own package (the simulator's packages of one record). */
  async function twoPackages(o: Owner) {
    await place(o.me.rfc, sale(newUuid(), '2025-03-10T10:00:00', o.me, CLIENT));
    await place(o.me.rfc, sale(newUuid(), '2025-03-11T10:00:00', o.me, CLIENT));
    await request(t, 'POST', '/__dev/sat/package-size', { body: { size: 1 } });
  }
  /** Each package id the job asked SAT for, with how many times. */
  const downloadsOf = (o: Owner) => {
    const times = new Map<string, number>();
    for (const c of callsTo('/ws/descarga', o.me.rfc)) {
      const id = /IdPaquete="([^"]+)"/.exec(c.body)?.[1] ?? '';
      times.set(id, (times.get(id) ?? 0) + 1);
    }
    return times;
  };
  /** Rewrites the answer to the request's second download (its second package) to `code`. */
  const secondDownloadAnswers = (o: Owner, code: string) => {
    let n = 0;
    rewrites.push({
      path: '/ws/descarga',
      body: o.me.rfc,
      times: 1,
      edit: (x) => (++n === 2 ? toCode(code)(x) : x),
    });
  };

  it.each(['5007', '5008'])(
    '%s on the second package of a request, after the first was stored: SAT is asked again for the request; the stored package is imported and never downloaded again',
    async (code) => {
      const o = await owner(rfcMoral(code === '5007' ? 167 : 168));
      await twoPackages(o);
      secondDownloadAnswers(o, code);
      const job = await ended(o, (await sync(o, EMITIDOS_CFDI)).id);
      expect(job.estado).toBe('terminada');
      expect(job.solicitudes).toMatchObject([{ intentos: 2, estado: 'importada' }]);
      // First request: P1 stored, P2 refused. Second request: two new packages, both downloaded.
      // P1 and P2 are not asked for again: 4 downloads, each package once.
      const downloads = downloadsOf(o);
      expect([...downloads.values()]).toEqual([1, 1, 1, 1]);
      // The CFDI of the stored P1 comes again in the new request's first package: imported once,
      // then counted a duplicate (imports dedupe by UUID).
      expect(job.cfdi).toEqual({ importados: 2, duplicados: 1, rechazados: 0, fuera_de_cuota: 0 });
    },
  );

  it('a transient failure (5006) on the second package: the retried step downloads only that one, imports both', async () => {
    const o = await owner(rfcMoral(169));
    await twoPackages(o);
    secondDownloadAnswers(o, '5006');
    const job = await ended(o, (await sync(o, EMITIDOS_CFDI)).id);
    expect(job.estado).toBe('terminada');
    // One SAT request; P1 downloaded once (stored before the failure), P2 twice (failed, then retried).
    expect(job.solicitudes).toMatchObject([{ intentos: 1, estado: 'importada' }]);
    expect([...downloadsOf(o).values()]).toEqual([1, 2]);
    expect(job.cfdi).toEqual({ importados: 2, duplicados: 0, rechazados: 0, fuera_de_cuota: 0 });
  });
});

describe('who may create a sync job', () => {
  it('FREE: 403 plan_required naming BASIC', async () => {
    const o = await owner(rfcMoral(120), 'FREE', false);
    await expect(sync(o)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      reason: 'plan_required',
      message: expect.stringContaining('BASIC'),
    });
  });

  it('an API key is refused (session only, as the e.firma)', async () => {
    const o = await owner(rfcMoral(121));
    const viaKey: Principal = { ...o.principal, via: 'api_key' };
    await expect(createSyncJob(ctx(), viaKey, o.profileId, ALL, NOW)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      reason: 'session_required',
    });
  });

  it('without a stored e.firma: 409 efirma_required, nothing created', async () => {
    const o = await owner(rfcMoral(122), 'PRO', false);
    await expect(sync(o)).rejects.toMatchObject({ code: 'CONFLICT', reason: 'efirma_required' });
    expect(await listSyncJobs(ctx(), o.principal, o.profileId)).toEqual([]);
  });

  it('periods SAT cannot serve are refused with sync_period_invalid, naming the field', async () => {
    const o = await owner(rfcMoral(123));
    const bad = async (desde: string, hasta: string) =>
      sync(o, { desde, hasta, tipo: 'ambos', contenido: 'ambos' }).catch((e) => e.fields);
    expect(await bad('2025-3-01', '2025-03-31')).toEqual([
      { path: 'desde', message: 'must be a date YYYY-MM-DD' },
    ]);
    expect(await bad('2025-04-01', '2025-03-31')).toEqual([
      { path: 'desde', message: 'must not be after hasta' },
    ]);
    // One year at most: 2025-01-01 → 2025-12-31 is one; → 2026-01-01 is a day more.
    expect(await bad('2025-01-01', '2026-01-01')).toEqual([
      { path: 'hasta', message: 'the period is at most one year' },
    ]);
    // NOW is 2026-11-25 in Mexico City: six years back is 2020-11-25.
    expect(await bad('2020-11-24', '2021-01-31')).toEqual([
      { path: 'desde', message: 'SAT serves at most six years back' },
    ]);
    expect(await bad('2026-11-01', '2026-11-26')).toEqual([
      { path: 'hasta', message: 'must not be after today (2026-11-25)' },
    ]);
    expect(await listSyncJobs(ctx(), o.principal, o.profileId)).toEqual([]);
  });

  it('BASIC: 10 jobs a calendar month; the 11th is refused (429 quota_exceeded) and not created', async () => {
    const o = await owner(rfcMoral(124), 'BASIC');
    const input: SyncJobInput = { ...MARCH, tipo: 'recibidos', contenido: 'metadata' };
    for (let i = 0; i < 10; i++) await sync(o, input);
    await expect(sync(o, input)).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      reason: 'quota_exceeded',
    });
    expect(await listSyncJobs(ctx(), o.principal, o.profileId)).toHaveLength(10);
  });

  it('BASIC: 12 jobs asked at once make exactly 10 (the count is taken in the database with the insert)', async () => {
    const o = await owner(rfcMoral(125), 'BASIC');
    const input: SyncJobInput = { ...MARCH, tipo: 'recibidos', contenido: 'metadata' };
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => sync(o, input)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(await listSyncJobs(ctx(), o.principal, o.profileId)).toHaveLength(10);
  });
});

describe('PRO daily schedule', () => {
  // The schedule takes every profile with a stored e.firma: the earlier tests' are erased, so this
  // block's jobs do not queue behind a daily job for each of theirs (and their unfinished jobs end).
  beforeAll(async () => {
    await t.handle.db.delete(efirmas);
  });

  it('one metadata job per PRO profile with a stored e.firma per day (1st of the previous month → yesterday); twice the same day adds nothing; BASIC profiles get none; then CFDI for the days whose metadata lists UUIDs Folio lacks', async () => {
    const pro = await owner(rfcMoral(130), 'PRO');
    const basic = await owner(rfcMoral(131), 'BASIC');
    await place(pro.me.rfc, sale(newUuid(), '2026-10-15T10:00:00', pro.me, CLIENT));
    const queue = runners[0]!.queue;
    const day = new Date('2026-11-25T15:00:00Z');
    await enqueueDailySyncs(t.deps as unknown as Deps, queue, day);
    await enqueueDailySyncs(t.deps as unknown as Deps, queue, day);
    const jobsOf = (profileId: string) =>
      t.handle.db.select().from(satSyncJobs).where(eq(satSyncJobs.profileId, profileId));
    const metadataJobs = (await jobsOf(pro.profileId)).filter((r) => r.contenido === 'metadata');
    expect(metadataJobs.map((r) => [r.origen, r.tipo, r.desde, r.hasta])).toEqual([
      ['diario', 'ambos', '2026-10-01', '2026-11-24'],
    ]);
    expect(await jobsOf(basic.profileId)).toEqual([]);
    // Its metadata lists the CFDI of 2026-10-15, which Folio lacks: a CFDI job for that day follows.
    const metadataJob = await ended(pro, metadataJobs[0]!.id);
    expect(metadataJob.metadata).toEqual({ vigentes: 1, cancelados: 0, faltantes: 1 });
    const cfdiJob = await followUp(pro);
    expect([cfdiJob.origen, cfdiJob.tipo, cfdiJob.desde, cfdiJob.hasta]).toEqual([
      'diario',
      'emitidos',
      '2026-10-15',
      '2026-10-15',
    ]);
    expect((await ended(pro, cfdiJob.id)).cfdi.importados).toBe(1);
  }, 90_000); // its jobs may wait in the queue behind those the BASIC tests above left

  it('an expired e.firma gets no daily job (SAT would refuse it every day)', async () => {
    const pro = await owner(rfcMoral(134), 'PRO');
    const [stored] = await t.handle.db.select().from(efirmas).where(eq(efirmas.profileId, pro.profileId));
    const dayAfter = new Date(stored!.validoHasta.getTime() + 86_400_000);
    await enqueueDailySyncs(t.deps as unknown as Deps, runners[0]!.queue, dayAfter);
    expect(
      await t.handle.db.select().from(satSyncJobs).where(eq(satSyncJobs.profileId, pro.profileId)),
    ).toEqual([]);
  });

  it('the CFDI follow-up asks SAT only for the days whose metadata lists UUIDs Folio lacks: consecutive days in one request, days apart in requests apart, per direction', async () => {
    const pro = await owner(rfcMoral(132), 'PRO');
    const u = { e5: newUuid(), e6: newUuid(), e7: newUuid(), x8: newUuid(), e9: newUuid(), r9: newUuid() };
    await place(pro.me.rfc, sale(u.e5, '2026-10-05T10:00:00', pro.me, CLIENT));
    await place(pro.me.rfc, sale(u.e6, '2026-10-06T23:00:00', pro.me, CLIENT));
    // Folio has the 7th's CFDI already; SAT serves received XML only vigente, so the 8th's
    // cancelled one is not worth a request: neither day is asked.
    const seventh = sale(u.e7, '2026-10-07T12:00:00', pro.me, CLIENT);
    await place(pro.me.rfc, seventh);
    await imported(t, pro.u, pro.profileId, seventh);
    await place(
      pro.me.rfc,
      sale(u.x8, '2026-10-08T12:00:00', OTHER, pro.me),
      '?estatus=cancelado&fecha_cancelacion=2026-10-09',
    );
    await place(pro.me.rfc, sale(u.e9, '2026-10-09T08:00:00', pro.me, CLIENT));
    await place(pro.me.rfc, sale(u.r9, '2026-10-09T09:00:00', CLIENT, pro.me));
    await enqueueDailySyncs(t.deps as unknown as Deps, runners[0]!.queue, new Date('2026-11-25T15:00:00Z'));
    const [metadataJob] = await t.handle.db
      .select()
      .from(satSyncJobs)
      .where(eq(satSyncJobs.profileId, pro.profileId));
    // Lacking: e5, e6, e9 (issued), r9 and x8 (received); x8 is cancelled, SAT would not serve it.
    expect((await ended(pro, metadataJob!.id)).metadata).toEqual({
      vigentes: 5,
      cancelados: 1,
      faltantes: 5,
    });
    const cfdiJob = await followUp(pro);
    expect((await ended(pro, cfdiJob.id)).cfdi).toEqual({
      importados: 4,
      duplicados: 0, // the 7th was not downloaded again
      rechazados: 0,
      fuera_de_cuota: 0,
    });
    const cfdiAsked = solicitudes.filter((s) => s.rfc === pro.me.rfc && s.content === 'CFDI');
    expect(cfdiAsked.map((s) => [s.direction, s.desde, s.hasta]).sort()).toEqual([
      ['emitidos', '2026-10-05T00:00:00', '2026-10-06T23:59:59'],
      ['emitidos', '2026-10-09T00:00:00', '2026-10-09T23:59:59'],
      ['recibidos', '2026-10-09T00:00:00', '2026-10-09T23:59:59'],
    ]);
    expect([cfdiJob.tipo, cfdiJob.desde, cfdiJob.hasta]).toEqual(['ambos', '2026-10-05', '2026-10-09']);
  });

  it('with nothing missing after the metadata, no CFDI job is made and SAT is asked for no CFDI', async () => {
    const pro = await owner(rfcMoral(133), 'PRO');
    const xml = sale(newUuid(), '2026-10-12T10:00:00', pro.me, CLIENT);
    await place(pro.me.rfc, xml);
    await imported(t, pro.u, pro.profileId, xml);
    await enqueueDailySyncs(t.deps as unknown as Deps, runners[0]!.queue, new Date('2026-11-25T15:00:00Z'));
    const [metadataJob] = await t.handle.db
      .select()
      .from(satSyncJobs)
      .where(eq(satSyncJobs.profileId, pro.profileId));
    expect((await ended(pro, metadataJob!.id)).metadata).toEqual({
      vigentes: 1,
      cancelados: 0,
      faltantes: 0,
    });
    // The job's own step calls it after the end; called here too, so the check does not race it.
    await enqueueMissingCfdi(t.deps as unknown as Deps, runners[0]!.queue, metadataJob!);
    const jobs = await t.handle.db.select().from(satSyncJobs).where(eq(satSyncJobs.profileId, pro.profileId));
    expect(jobs.map((j) => j.contenido)).toEqual(['metadata']);
    const asked = solicitudes.filter((s) => s.rfc === pro.me.rfc);
    expect(asked.map((s) => [s.direction, s.content]).sort()).toEqual([
      ['emitidos', 'Metadata'],
      ['recibidos', 'Metadata'],
    ]);
  });
});

describe('e.firma expiry mail', () => {
  it('the daily job mails the owner once when the stored e.firma is 30 days from expiring (31 days before: none; again that day or the next: none); a replaced e.firma gets its own', async () => {
    const o = await owner(rfcMoral(170));
    const [stored] = await t.handle.db.select().from(efirmas).where(eq(efirmas.profileId, o.profileId));
    const daysBefore = (n: number) => new Date(stored!.validoHasta.getTime() - n * 86_400_000);
    let today = daysBefore(31);
    const expiry = syncQueues({ deps: () => t.deps as unknown as Deps, timing: { now: () => today } })[
      'efirma.expiry'
    ];
    const runDaily = () => expiry.handler({}, undefined as never); // the handler reads no job run
    const notices = async () =>
      (await t.handle.db.select().from(emailOutbox).where(eq(emailOutbox.to, o.u.email))).filter(
        (m) => m.kind === 'efirma-expiring',
      );
    await runDaily();
    expect(await notices()).toEqual([]);
    today = daysBefore(30);
    await runDaily();
    await runDaily(); // a restart the same day
    const sent = await notices();
    expect(sent.map((m) => m.subject)).toEqual(['Tu e.firma vence en 30 días']);
    expect(sent[0]!.text).toContain(`La e.firma del RFC ${o.me.rfc}`);
    today = daysBefore(29);
    await runDaily();
    expect((await notices()).length).toBe(1);
    await storeSimulatorEfirma(o); // the replacement is a new row, its own notice
    await runDaily();
    expect((await notices()).length).toBe(2);
  });
});

describe('e.firma use', () => {
  it('every use of the stored e.firma is an audit row (efirma.use, by no user) naming the e.firma and the job it served', async () => {
    const o = await owner(rfcMoral(171));
    const [stored] = await t.handle.db.select().from(efirmas).where(eq(efirmas.profileId, o.profileId));
    const { id } = await sync(o, { ...MARCH, tipo: 'emitidos', contenido: 'metadata' });
    await ended(o, id);
    const uses = (await t.handle.db.select().from(auditLog).where(eq(auditLog.action, 'efirma.use'))).filter(
      (a) => (a.data as { profileId: string }).profileId === o.profileId,
    );
    // Each step that spoke to SAT opened the e.firma and signed in with it: one row per sign-in.
    expect(uses.length).toBeGreaterThan(0);
    expect(uses.length).toBe(signIns.filter((cer) => cer.includes(o.me.rfc)).length);
    for (const use of uses) {
      expect(use).toMatchObject({
        userId: null,
        entity: 'efirma',
        entityId: stored!.id,
        data: { profileId: o.profileId, purpose: `sat-sync ${id}` },
      });
    }
  });
});

describe('the answers', () => {
  it('GET of another user’s job is 404', async () => {
    const o = await owner(rfcMoral(140), 'PRO');
    const stranger = await owner(rfcMoral(141), 'PRO', false);
    const { id } = await sync(o, { ...MARCH, tipo: 'recibidos', contenido: 'metadata' });
    await expect(getSyncJob(ctx(), stranger.principal, id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await ended(o, id);
  });
});
