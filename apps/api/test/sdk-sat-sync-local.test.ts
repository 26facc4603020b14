// SAT sync from the client side (integrations.md §1, docs/sat-sync.md#local-mode): `folio sat sync
// --cer --key` in local mode against the dev simulator of this file's app (the CLI runs as a function,
// its fetch is the app's), and the REST SDK's `satSync` namespace over HTTP. A job runner runs the
// server jobs the namespace starts, as sat-sync-routes.test.ts does.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { AppJobRunner } from '@folio/api';
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { createFolioRestClient, FolioApiError } from '@folio/sdk/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../../../packages/sdk/src/cli/io';
import { runCli } from '../../../packages/sdk/src/cli/main';
import { satTargetOf } from '../../../packages/sdk/src/cli/sat-local';
import { createLogger } from '../src/logger';
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
import { simulatorInApp, startSyncRunner } from './sync-runner';

const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };
const SUPPLIER: Party = { rfc: 'EKU9003173C9', nombre: 'Escuela Kemper Urgate', regimen: '601' };
const MARCH = ['--desde', '2025-03-01', '--hasta', '2025-03-31'];

let t: TestApp;
let dir: string;
let runner: AppJobRunner;
/** Every line the server logged, at the most verbose level. */
const logged: string[] = [];
const sat = simulatorInApp(() => t);

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      logged.push(String(chunk));
      done();
    },
  });
  t = await startTestApp({ config: { ...testConfig, sat }, log: createLogger('trace', sink) });
  dir = mkdtempSync(join(tmpdir(), 'folio-sat-local-'));
  runner = await startSyncRunner(t);
});
afterAll(async () => {
  await runner.stop();
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

/** Every request a client sent, with its body's bytes. */
interface Sent {
  url: string;
  body: Buffer;
}

const appFetch = (sent: Sent[]) =>
  (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    sent.push({ url: req.url, body: Buffer.from(await req.clone().arrayBuffer()) });
    return t.app.request(req);
  }) as typeof fetch;

let rfcs = 0;
/** A PRO user with a profile, and the simulator's e.firma for its RFC written to files. */
async function owner() {
  const u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  const me: Party = { rfc: rfcMoral(700 + ++rfcs), nombre: 'Comercial Local', regimen: '601' };
  const profile = await createProfile(t, u, { nombre: me.nombre, rfc: me.rfc, tipo_persona: 'MORAL' });
  const issued = await request(t, 'POST', '/__dev/sat/efirma', { body: { rfc: me.rfc } });
  const efirma = ((await issued.json()) as { data: { cer: string; key: string; password: string } }).data;
  const cer = join(dir, `${me.rfc}.cer`);
  const key = join(dir, `${me.rfc}.key`);
  writeFileSync(cer, Buffer.from(efirma.cer, 'base64'));
  writeFileSync(key, Buffer.from(efirma.key, 'base64'));
  return { u, me, profileId: profile.id, efirma, files: ['--cer', cer, '--key', key] };
}

/** The `folio` command as a function; its pauses are recorded and not waited. */
async function folio(args: string[], u: TestUser, opts: { password?: string; stdin?: string } = {}) {
  let stdout = '';
  let stderr = '';
  const pauses: number[] = [];
  const sent: Sent[] = [];
  const io: Io = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: Object.assign(Readable.from(opts.stdin === undefined ? [] : [opts.stdin]), { isTTY: false }),
    env: {
      FOLIO_CONFIG: join(dir, 'none.json'),
      FOLIO_URL: 'http://folio.test',
      FOLIO_TOKEN: u.token,
      ...(opts.password === undefined ? {} : { FOLIO_EFIRMA_PASSWORD: opts.password }),
    },
    cwd: dir,
    fetch: appFetch(sent),
    now: () => 0,
    sleep: async (ms) => {
      pauses.push(ms);
    },
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr, pauses, sent };
}

async function uuidsOf(u: TestUser, what: 'invoices' | 'expenses', profileId: string) {
  const res = await request(t, 'GET', `/api/${what}?profileId=${profileId}&limit=100`, {
    headers: bearer(u.token),
  });
  return ((await res.json()).data as { uuid: string }[]).map((r) => r.uuid.toUpperCase()).sort();
}

describe('folio sat sync, local mode (--cer/--key: the e.firma stays on the machine)', () => {
  it('imports exactly what the simulator holds (issued and received, CFDI and metadata), and a second run nothing new', async () => {
    const o = await owner();
    const at = (day: number) => `2025-03-${String(day).padStart(2, '0')}T10:00:00`;
    const [a, b, c, d] = [newUuid(), newUuid(), newUuid(), newUuid()].map((x) => x.toUpperCase()) as [
      string,
      string,
      string,
      string,
    ];
    const place = (rfc: string, xml: string, cancelled = false) =>
      t.app.request(
        `/__dev/sat/${rfc}/cfdi${cancelled ? '?estatus=cancelado&fecha_cancelacion=2025-03-20' : ''}`,
        {
          method: 'POST',
          body: xml,
        },
      );
    // Issued: A vigente, B cancelled. Received: C vigente, D cancelled.
    await place(o.me.rfc, invoiceXml({ uuid: a, emisor: o.me, receptor: CLIENT, fecha: at(3) }));
    await place(o.me.rfc, invoiceXml({ uuid: b, emisor: o.me, receptor: CLIENT, fecha: at(4) }), true);
    await place(SUPPLIER.rfc, invoiceXml({ uuid: c, emisor: SUPPLIER, receptor: o.me, fecha: at(5) }));
    await place(SUPPLIER.rfc, invoiceXml({ uuid: d, emisor: SUPPLIER, receptor: o.me, fecha: at(6) }), true);

    const first = await folio(
      ['sat', 'sync', ...o.files, ...MARCH, '--sat', 'simulator', '--password-stdin', '--json'],
      o.u,
      { stdin: `${o.efirma.password}\n` },
    );
    expect(first.stderr).toContain('Modo local');
    expect(first.code).toBe(0);
    // Issued CFDI come in every status, received ones Vigente only (SAT's rule): A, B and C; D is
    // known from the metadata only (4 lines: 3 updated and D without XML).
    expect(JSON.parse(first.stdout)).toEqual({
      rfc: o.me.rfc,
      cfdi: { importados: 3, duplicados: 0, rechazados: 0 },
      metadata: { actualizados: 3, sin_cambio: 0, sin_xml: 1, invalidos: 0 },
    });
    expect(await uuidsOf(o.u, 'invoices', o.profileId)).toEqual([a, b].sort());
    expect(await uuidsOf(o.u, 'expenses', o.profileId)).toEqual([c]);
    const missing = await request(t, 'GET', `/api/profiles/${o.profileId}/sat-metadata/missing`, {
      headers: bearer(o.u.token),
    });
    expect(((await missing.json()).data as { uuid: string }[]).map((m) => m.uuid.toUpperCase())).toEqual([d]);
    // Progress while it ran: four requests (direction × content), each polled with SAT's back-off
    // (the simulator finishes on the second verification: 1 minute, then 2), downloads, uploads.
    expect(first.stderr.match(/solicitud \S+ aceptada/g)).toHaveLength(4);
    expect(first.stderr).toContain('descargado');
    expect(first.stderr).toContain('CFDI subidos a Folio');
    expect(first.pauses).toEqual(Array.from({ length: 4 }, () => [60_000, 120_000]).flat());

    // Again, with SAT answering the first request 5005 (an identical request alive): the start moves
    // one second earlier, and everything downloaded is already in Folio.
    await request(t, 'POST', '/__dev/sat/next-answer', { body: { code: '5005' } });
    const second = await folio(['sat', 'sync', ...o.files, ...MARCH, '--sat', 'simulator', '--json'], o.u, {
      password: o.efirma.password,
    });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('el SAT respondió 5005; se pide otra vez desde un segundo antes');
    expect(JSON.parse(second.stdout)).toMatchObject({
      cfdi: { importados: 0, duplicados: 3, rechazados: 0 },
      metadata: { actualizados: 0, sin_xml: 1 },
    });
    expect(await uuidsOf(o.u, 'invoices', o.profileId)).toEqual([a, b].sort());

    // The server never got the e.firma: no request to Folio's API holds the certificate, the key or
    // the password; no request at all (SAT's included) holds the key or the password; nor the log.
    const sent = [...first.sent, ...second.sent];
    const api = sent.filter((s) => new URL(s.url).pathname.startsWith('/api/'));
    expect(api.some((s) => s.url.endsWith('/cfdi'))).toBe(true);
    expect(api.some((s) => s.url.endsWith('/sat-metadata'))).toBe(true);
    const raw = (b64: string) => Buffer.from(b64, 'base64').subarray(0, 40);
    for (const s of sent) {
      for (const secret of [o.efirma.key.slice(0, 40), raw(o.efirma.key), o.efirma.password])
        expect(s.body.includes(secret)).toBe(false);
    }
    for (const s of api) {
      for (const secret of [o.efirma.cer.slice(0, 40), raw(o.efirma.cer)])
        expect(s.body.includes(secret)).toBe(false);
    }
    // SAT (here the simulator) gets the certificate, public, inside the signature: the recording works.
    expect(
      sent.some((s) => s.url.includes('/__dev/sat/ws/') && s.body.includes(o.efirma.cer.slice(0, 40))),
    ).toBe(true);
    const log = logged.join('');
    for (const secret of [o.efirma.cer.slice(0, 40), o.efirma.key.slice(0, 40), o.efirma.password])
      expect(log).not.toContain(secret);
  }, 90_000);

  it("SAT's 5004 (nothing in the period) ends the run with zeros and uploads nothing", async () => {
    const o = await owner();
    await request(t, 'POST', '/__dev/sat/next-answer', { body: { code: '5004' } });
    const r = await folio(
      [
        'sat',
        'sync',
        ...o.files,
        ...MARCH,
        '--sat',
        'simulator',
        '--tipo',
        'emitidos',
        '--contenido',
        'cfdi',
      ],
      o.u,
      { password: o.efirma.password },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('el SAT no tiene nada en el periodo');
    expect(r.stdout).toBe('CFDI: 0 importados, 0 duplicados, 0 rechazados.\n');
    expect(r.sent.filter((s) => new URL(s.url).pathname.startsWith('/api/profiles/'))).toEqual([]);
  });

  it('a wrong password is refused with a clear message (exit 1) and nothing is sent anywhere', async () => {
    const o = await owner();
    const r = await folio(['sat', 'sync', ...o.files, ...MARCH, '--sat', 'simulator'], o.u, {
      password: `${o.efirma.password}-no`,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No se pudo abrir la e.firma: la contraseña no abre la llave (.key)');
    expect(r.sent).toEqual([]);
  });

  it('the e.firma of another RFC than --profile is refused before SAT is asked or anything uploaded', async () => {
    const o = await owner();
    const other = await createProfile(t, o.u, { nombre: 'Otra', rfc: rfcMoral(790), tipo_persona: 'MORAL' });
    const r = await folio(
      ['sat', 'sync', ...o.files, ...MARCH, '--sat', 'simulator', '--profile', other.rfc],
      o.u,
      {
        password: o.efirma.password,
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`La e.firma es de ${o.me.rfc}`);
    expect(r.sent.map((s) => `${new URL(s.url).pathname}`)).toEqual(['/api/profiles']);
  });

  it('--sat defaults to the simulator of a localhost server and to SAT elsewhere; --sat without --cer is a usage error', async () => {
    expect(satTargetOf(undefined, 'http://localhost:3000/api')).toEqual({
      kind: 'simulator',
      origin: 'http://localhost:3000',
    });
    expect(satTargetOf(undefined, 'https://folio.example.mx')).toEqual({ kind: 'sat' });
    expect(satTargetOf('simulator', 'https://folio.example.mx/')).toEqual({
      kind: 'simulator',
      origin: 'https://folio.example.mx',
    });
    const o = await owner();
    const r = await folio(['sat', 'sync', '--profile', o.me.rfc, ...MARCH, '--sat', 'simulator'], o.u);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--sat and --password-stdin are for local mode');
    expect(r.sent).toEqual([]);
  });
});

describe('rest.satSync (the REST SDK over HTTP)', () => {
  it('efirma.put/get/delete, start → get until terminada, list newest first, checkInvoice; without the e.firma start is refused', async () => {
    const o = await owner();
    const rest = createFolioRestClient({
      baseUrl: 'http://folio.test',
      token: o.u.token,
      fetch: appFetch([]),
    });
    const stored = await rest.satSync.efirma.put({
      profileId: o.profileId,
      cer: Buffer.from(o.efirma.cer, 'base64'),
      key: Buffer.from(o.efirma.key, 'base64'),
      password: o.efirma.password,
      consentimiento: true,
    });
    expect(stored.rfc).toBe(o.me.rfc);
    expect((await rest.satSync.efirma.get(o.profileId)).numero_certificado).toBe(stored.numero_certificado);

    const uuid = newUuid();
    const xml = invoiceXml({ uuid, emisor: o.me, receptor: CLIENT, fecha: '2025-03-10T10:00:00' });
    await t.app.request(`/__dev/sat/${o.me.rfc}/cfdi`, { method: 'POST', body: xml });
    const body = { desde: '2025-03-01', hasta: '2025-03-31', tipo: 'emitidos', contenido: 'cfdi' } as const;
    const created = await rest.satSync.start(o.profileId, body);
    expect(created.estado).toBe('pendiente');
    let job = await rest.satSync.get(created.id);
    for (let i = 0; i < 120 && job.estado !== 'terminada' && job.estado !== 'error'; i++) {
      await new Promise((r) => setTimeout(r, 250));
      job = await rest.satSync.get(created.id);
    }
    expect(job).toMatchObject({ estado: 'terminada', cfdi: { importados: 1 } });
    const second = await rest.satSync.start(o.profileId, body);
    expect((await rest.satSync.list(o.profileId)).map((j) => j.id)).toEqual([second.id, created.id]);

    const [invoice] = (await rest.GET('/invoices', { params: { query: { profileId: o.profileId } } })).data
      .data;
    expect((await rest.satSync.checkInvoice(invoice!.id)).sat.estado).toBe('vigente');

    await rest.satSync.efirma.delete(o.profileId);
    const gone = await rest.satSync.efirma.get(o.profileId).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(FolioApiError);
    expect((gone as FolioApiError).status).toBe(404);
    const refused = await rest.satSync.start(o.profileId, body).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 409, code: 'efirma_required' });
  }, 90_000);
});
