// The e.firma's key material never leaves the server (integrations.md §1 "e.firma", issue 28): one
// full sync — the e.firma uploaded over HTTP (a refused try first), a job run to its end through a
// SAT failure, the job and the e.firma read back — while every log line the server writes (the
// app's and the job runner's logger at trace level, and the console) and every answer it gives are
// kept. None holds the password, the key file (base64 and PEM, hex, a logged Buffer) or the
// decrypted private key. The first test shows the search finds each form when one is planted.
// Touches the database: run on both.
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import type { AppJobRunner } from '@folio/api';
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { PrivateKey } from '@nodecfdi/credentials/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
  testConfig,
} from './harness';
import { simulatorInApp, startSyncRunner } from './sync-runner';

const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };

/** Text at least this long is a leak when found (shorter tails of a chunking could match by chance). */
const MIN_FORM = 24;
const chunks = (text: string, size: number) =>
  (text.match(new RegExp(`.{1,${size}}`, 'g')) ?? []).filter((c) => c.length >= MIN_FORM);

/**
 * Every form the e.firma's secrets could leak in, by name: the password; the key file (encrypted
 * PKCS#8 DER) as base64 in 64-character lines (the PEM's; any 128 characters of the base64 hold
 * one), hex, spaced hex (`inspect` of a Buffer) and the decimals of a Buffer in JSON; the
 * decrypted private key's PEM lines and hex.
 */
function secretForms(key: Buffer, password: string): Map<string, string> {
  const forms = new Map<string, string>([['password', password]]);
  const add = (what: string, parts: string[]) => {
    for (const [i, p] of parts.entries()) forms.set(`${what} #${i + 1}`, p);
  };
  const bytes16 = (b: Buffer) =>
    Array.from({ length: Math.floor(b.length / 16) }, (_, i) => b.subarray(i * 16, i * 16 + 16));
  add('key file, base64/PEM line', chunks(key.toString('base64'), 64));
  add('key file, hex', chunks(key.toString('hex'), 64));
  add(
    'key file, spaced hex',
    bytes16(key).map((b) => b.toString('hex').replace(/(..)(?!$)/g, '$1 ')),
  );
  add(
    'key file, Buffer as JSON',
    bytes16(key).map((b) => JSON.stringify(b.toJSON().data).slice(1, -1)),
  );
  const decrypted = new PrivateKey(key.toString('binary'), password).pem();
  const body = decrypted.split('\n').filter((l) => l && !l.startsWith('-----'));
  add(
    'decrypted key, PEM line',
    body.filter((l) => l.length >= MIN_FORM),
  );
  add('decrypted key, hex', chunks(Buffer.from(body.join(''), 'base64').toString('hex'), 64));
  return forms;
}

/** The names of the forms found in `text`. */
const leaksIn = (text: string, forms: Map<string, string>) =>
  [...forms].filter(([, form]) => text.includes(form)).map(([name]) => name);

let t: TestApp;
let runner: AppJobRunner;
/** Every line the server logs (its logger at trace, and anything written to the console). */
const logged: string[] = [];
/** Every answer body the server gives, but the simulator's issuing of the test e.firma (SAT's side). */
const answered: string[] = [];
const consoleSpies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => vi.spyOn(console, m));
const consoleLines = () =>
  consoleSpies.flatMap((s) =>
    s.mock.calls.map((args) => args.map((a) => (typeof a === 'string' ? a : inspect(a))).join(' ')),
  );

const sat = simulatorInApp(() => t);

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      logged.push(String(chunk));
      done();
    },
  });
  t = await startTestApp({ log: createLogger('trace', sink), config: { ...testConfig, sat } });
  const serve = t.app.request;
  t.app.request = async (...args: Parameters<typeof serve>) => {
    const res = await serve(...args);
    const [input] = args;
    const url = input instanceof Request ? input.url : String(input);
    if (!url.endsWith('/__dev/sat/efirma')) answered.push(await res.clone().text());
    return res;
  };
  runner = await startSyncRunner(t);
});
afterAll(async () => {
  await runner.stop();
  await t.close();
  for (const s of consoleSpies) s.mockRestore();
});

/** The simulator's e.firma for `rfc`, as SAT issues it: DER certificate, encrypted key, password. */
async function issued(rfc: string) {
  const res = await request(t, 'POST', '/__dev/sat/efirma', { body: { rfc } });
  const e = ((await res.json()) as { data: { cer: string; key: string; password: string } }).data;
  return { cer: Buffer.from(e.cer, 'base64'), key: Buffer.from(e.key, 'base64'), password: e.password };
}

function efirmaForm(e: { cer: Buffer; key: Buffer }, password: string) {
  const form = new FormData();
  form.append('cer', new File([new Uint8Array(e.cer)], 'fiel.cer'));
  form.append('key', new File([new Uint8Array(e.key)], 'fiel.key'));
  form.append('password', password);
  form.append('consentimiento', 'true');
  return form;
}

describe('the search for the key material', () => {
  it('finds each form of a planted secret in a log line or an answer, and nothing in clean text', async () => {
    const e = await issued(rfcMoral(400));
    const forms = secretForms(e.key, e.password);
    // Planted through a logger like the server's, under names its redaction does not know.
    const planted: string[] = [];
    const log = createLogger(
      'trace',
      new Writable({
        write(chunk, _enc, done) {
          planted.push(String(chunk));
          done();
        },
      }),
    );
    log.info(`opening the e.firma with ${e.password}`);
    log.info({ material: e.key.toString('base64') }, 'the key logged by mistake');
    expect(leaksIn(planted[0]!, forms)).toEqual(['password']);
    expect(leaksIn(planted[1]!, forms)).toContain('key file, base64/PEM line #3');
    // Planted in an answer: the decrypted key's PEM, and the key file as a Buffer in JSON.
    const decrypted = new PrivateKey(e.key.toString('binary'), e.password).pem();
    const answer = JSON.stringify({ data: { pem: decrypted, der: e.key } });
    expect(leaksIn(answer, forms)).toEqual(
      expect.arrayContaining(['decrypted key, PEM line #3', 'key file, Buffer as JSON #2']),
    );
    expect(leaksIn(inspect(e.key), forms)).toContain('key file, spaced hex #1');
    expect(leaksIn(e.key.toString('hex'), forms)).toContain('key file, hex #5');
    // The certificate is public: its text finds nothing.
    expect(leaksIn(e.cer.toString('base64') + e.cer.toString('hex'), forms)).toEqual([]);
  });
});

describe('a full sync through HTTP', () => {
  it('no log line and no answer holds the password, the key file or the decrypted private key', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    const me: Party = { rfc: rfcMoral(401), nombre: 'Comercial Sincronizada', regimen: '601' };
    const profile = await createProfile(t, u, {
      nombre: me.nombre,
      rfc: me.rfc,
      tipo_persona: 'MORAL',
      regimenes_fiscales: ['601'],
    });
    const e = await issued(me.rfc);
    const efirmaUrl = `/api/profiles/${profile.id}/efirma`;
    const put = (password: string) =>
      t.app.request(efirmaUrl, { method: 'PUT', headers: bearer(u.token), body: efirmaForm(e, password) });
    const refused = await put(`${e.password}-wrong`);
    expect((await refused.json()).code).toBe('efirma_password_wrong');
    expect((await put(e.password)).status).toBe(200);

    for (const [from, to] of [
      [me, CLIENT],
      [CLIENT, me],
    ] as const) {
      const xml = invoiceXml({ uuid: newUuid(), emisor: from, receptor: to, fecha: '2025-03-10T10:00:00' });
      const placed = await t.app.request(`/__dev/sat/${me.rfc}/cfdi`, { method: 'POST', body: xml });
      expect(placed.status).toBe(201);
    }
    // SAT fails the job's first call (HTTP 503): the queue retries it, and says so in the log.
    await request(t, 'POST', '/__dev/sat/fail-next');
    const started = await request(t, 'POST', `/api/profiles/${profile.id}/sat-sync`, {
      headers: bearer(u.token),
      body: { desde: '2025-03-01', hasta: '2025-03-31', tipo: 'ambos', contenido: 'ambos' },
    });
    expect(started.status).toBe(202);
    const { id } = (await started.json()).data;
    const job = await vi.waitFor(
      async () => {
        const res = await request(t, 'GET', `/api/sat-sync/${id}`, { headers: bearer(u.token) });
        const data = (await res.json()).data;
        if (data.estado !== 'terminada' && data.estado !== 'error') throw new Error(`still ${data.estado}`);
        return data;
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(job.estado).toBe('terminada');
    expect(job.cfdi.importados).toBe(2);
    const got = await request(t, 'GET', efirmaUrl, { headers: bearer(u.token) });
    expect((await got.json()).data.rfc).toBe(me.rfc);
    await request(t, 'GET', `/api/profiles/${profile.id}/sat-sync`, { headers: bearer(u.token) });

    // What was kept is the server's whole say: the upload's request line, the job runner's
    // failure, the SAT answers and the job.
    const logs = logged.join('') + consoleLines().join('\n');
    expect(logs).toContain(efirmaUrl);
    expect(logs).toContain('job failed');
    expect(answered.join('\n')).toContain(id);
    const forms = secretForms(e.key, e.password);
    expect(leaksIn(logs, forms)).toEqual([]);
    expect(leaksIn(answered.join('\n'), forms)).toEqual([]);
  });
});
