// The CLI's `folio sat sync` and `folio sat status` against this file's app, in-process (the client's
// fetch is the app's; the CLI runs as a function). A job runner is started as sat-sync-job.test.ts
// does, so the sync job really runs against the simulator; the CLI's 2 s pause is injected short.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { AppJobRunner } from '@folio/api';
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../../../packages/sdk/src/cli/io';
import { runCli } from '../../../packages/sdk/src/cli/main';
import { POLL_MS } from '../../../packages/sdk/src/cli/sat-sync';
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
  uploadXml,
} from './harness';
import { simulatorInApp, startSyncRunner } from './sync-runner';

const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };
let t: TestApp;
let dir: string;
let runner: AppJobRunner;
const sat = simulatorInApp(() => t);

beforeAll(async () => {
  t = await startTestApp({ config: { ...testConfig, sat } });
  dir = mkdtempSync(join(tmpdir(), 'folio-sat-sync-'));
  runner = await startSyncRunner(t);
});
afterAll(async () => {
  await runner.stop();
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

const appFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  Promise.resolve(t.app.request(new Request(input, init)))) as typeof fetch;

let rfcs = 0;
async function owner() {
  const u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  const me: Party = { rfc: rfcMoral(500 + ++rfcs), nombre: 'Comercial', regimen: '601' };
  const profile = await createProfile(t, u, { nombre: me.nombre, rfc: me.rfc, tipo_persona: 'MORAL' });
  const issued = await request(t, 'POST', '/__dev/sat/efirma', { body: { rfc: me.rfc } });
  const e = ((await issued.json()) as { data: { cer: string; key: string; password: string } }).data;
  const form = new FormData();
  form.append('cer', new File([Buffer.from(e.cer, 'base64')], 'a.cer'));
  form.append('key', new File([Buffer.from(e.key, 'base64')], 'a.key'));
  form.append('password', e.password);
  form.append('consentimiento', 'true');
  const put = await t.app.request(`/api/profiles/${profile.id}/efirma`, {
    method: 'PUT',
    headers: bearer(u.token),
    body: form,
  });
  expect(put.status).toBe(200);
  return { u, me, profileId: profile.id };
}

/** The `folio` command as a function; the pauses it asks for are recorded and kept short. */
async function folio(args: string[], u: TestUser) {
  let stdout = '';
  let stderr = '';
  const pauses: number[] = [];
  const io: Io = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    env: { FOLIO_CONFIG: join(dir, 'none.json'), FOLIO_URL: 'http://folio.test', FOLIO_TOKEN: u.token },
    cwd: dir,
    fetch: appFetch,
    now: () => 0,
    sleep: (ms) => {
      pauses.push(ms);
      return new Promise((r) => setTimeout(r, 100));
    },
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr, pauses };
}

describe('folio sat sync', () => {
  it('creates the server job, prints its estado until terminada (asking every 2 s), then the counts in Spanish', async () => {
    const o = await owner();
    const xml = invoiceXml({ uuid: newUuid(), emisor: o.me, receptor: CLIENT, fecha: '2025-03-10T10:00:00' });
    const placed = await t.app.request(`/__dev/sat/${o.me.rfc}/cfdi`, { method: 'POST', body: xml });
    expect(placed.status).toBe(201);
    const r = await folio(
      [
        'sat',
        'sync',
        '--profile',
        o.me.rfc,
        '--desde',
        '2025-03-01',
        '--hasta',
        '2025-03-31',
        '--tipo',
        'emitidos',
      ],
      o.u,
    );
    expect(r.stderr).toContain('pendiente');
    expect(r.stderr).toContain('terminada');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('CFDI: 1 importados');
    expect(r.stdout).toContain('Metadatos:');
    expect(new Set(r.pauses)).toEqual(new Set([POLL_MS]));
    expect(POLL_MS).toBe(2000);
  }, 90_000);

  it('without --desde is a usage error (exit 2) that sends nothing', async () => {
    const o = await owner();
    const r = await folio(['sat', 'sync', '--profile', o.me.rfc, '--hasta', '2025-03-31'], o.u);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--desde');
    const list = await request(t, 'GET', `/api/profiles/${o.profileId}/sat-sync`, {
      headers: bearer(o.u.token),
    });
    expect((await list.json()).data).toEqual([]);
  });
});

describe('folio sat status', () => {
  it('finds the invoice by UUID and prints what SAT answered: cancelado once cancelled on SAT', async () => {
    const o = await owner();
    const uuid = newUuid();
    const xml = invoiceXml({ uuid, emisor: o.me, receptor: CLIENT, fecha: '2025-05-01T10:00:00' });
    await uploadXml(t, o.u, o.profileId, xml);
    await t.app.request(`/__dev/sat/${o.me.rfc}/cfdi`, { method: 'POST', body: xml });
    await t.app.request(`/__dev/sat/${o.me.rfc}/cancel/${uuid}?fecha_cancelacion=2025-06-01`, {
      method: 'POST',
    });
    const r = await folio(['sat', 'status', uuid.toLowerCase()], o.u);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('SAT responde cancelado; estatus en Folio: cancelado');
  });

  it('finds an expense by UUID too, and a UUID of nothing is an error (exit 1)', async () => {
    const o = await owner();
    const uuid = newUuid();
    const xml = invoiceXml({ uuid, emisor: CLIENT, receptor: o.me, fecha: '2025-05-01T10:00:00' });
    await uploadXml(t, o.u, o.profileId, xml);
    await t.app.request(`/__dev/sat/${CLIENT.rfc}/cfdi`, { method: 'POST', body: xml });
    const r = await folio(['sat', 'status', uuid], o.u);
    expect(r.stdout).toContain('SAT responde vigente; estatus en Folio: vigente');
    const none = await folio(['sat', 'status', newUuid()], o.u);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no hay factura ni gasto');
  });
});
