// The stored e.firma over REST and tRPC (integrations.md §1, docs/sat-sync.md#efirma): PUT takes the
// files as multipart and answers the certificate's facts; each refusal is a 400 with its code and
// stores nothing; session only, BASIC and PRO, the owner's profile only; GET and DELETE; and the key
// and password reach no answer and no log line. E.firmas come from the simulator's issuer (valid
// around today's date, so no fixed clock is needed), the CSD and the expired one from it too.
import { Writable } from 'node:stream';
import { efirmas } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueTestEfirma, type TestEfirma } from '../src/dev/sat/test-efirma';
import { createLogger } from '../src/logger';
import {
  bearer,
  caller,
  createProfile,
  expectError,
  request,
  rfcMoral,
  setPlan,
  signUp,
  signUpVerified,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

let t: TestApp;
const logged: string[] = [];
/** Every answer body of this file, checked at the end for the secrets sent. */
const answered: string[] = [];
/** Every password and key sent (base64 prefixes are enough to recognise the key). */
const secrets: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      logged.push(String(chunk));
      done();
    },
  });
  t = await startTestApp({ log: createLogger('trace', sink) });
});
afterAll(() => t.close());

let rfcs = 0;
async function owner(plan: 'BASIC' | 'PRO' | null = 'BASIC', verified = false) {
  const u = verified ? await signUpVerified(t) : await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  const rfc = rfcMoral(100 + ++rfcs);
  const profile = await createProfile(t, u, {
    nombre: 'Comercial',
    rfc,
    tipo_persona: 'MORAL',
    regimenes_fiscales: ['601'],
  });
  return { u, rfc, profileId: profile.id };
}

function issued(rfc: string, opts: Parameters<typeof issueTestEfirma>[1] = {}): TestEfirma {
  const e = issueTestEfirma(rfc, opts);
  secrets.push(e.password, e.key.slice(0, 40));
  return e;
}

/** Where the PUTs come from: the consent records it. */
const CLIENT_IP = '203.0.113.9';

interface Parts {
  cer?: string;
  key?: string;
  password?: string;
  consentimiento?: string;
}
const partsOf = (e: TestEfirma): Parts => ({
  cer: e.cer,
  key: e.key,
  password: e.password,
  consentimiento: 'true',
});

async function put(u: TestUser | string, profileId: string, parts: Parts): Promise<Response> {
  const form = new FormData();
  if (parts.cer !== undefined) form.append('cer', new File([Buffer.from(parts.cer, 'base64')], 'e.cer'));
  if (parts.key !== undefined) form.append('key', new File([Buffer.from(parts.key, 'base64')], 'e.key'));
  if (parts.password !== undefined) form.append('password', parts.password);
  if (parts.consentimiento !== undefined) form.append('consentimiento', parts.consentimiento);
  const token = typeof u === 'string' ? u : u.token;
  const res = await t.app.request(`/api/profiles/${profileId}/efirma`, {
    method: 'PUT',
    headers: { ...bearer(token), 'x-forwarded-for': CLIENT_IP },
    body: form,
  });
  answered.push(await res.clone().text());
  return res;
}

async function call(u: TestUser | string, method: 'GET' | 'DELETE', profileId: string) {
  const token = typeof u === 'string' ? u : u.token;
  const res = await request(t, method, `/api/profiles/${profileId}/efirma`, { headers: bearer(token) });
  answered.push(await res.clone().text());
  return res;
}

const stored = (profileId: string) =>
  t.handle.db.select().from(efirmas).where(eq(efirmas.profileId, profileId));

async function refused(res: Response, status: number, label: string, code: string) {
  const body = (await res.clone().json()) as { code: string };
  await expectError(res, status, label);
  expect(body.code).toBe(code);
}

describe('PUT, GET and DELETE /api/profiles/{id}/efirma', () => {
  it('PUT stores an e.firma of the profile’s RFC and answers its facts and the consent; GET the same; DELETE erases the row', async () => {
    const o = await owner('BASIC');
    const e = issued(o.rfc);
    const res = await put(o.u, o.profileId, partsOf(e));
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Record<string, unknown> };
    expect(data).toEqual({
      rfc: o.rfc,
      numero_certificado: e.numeroCertificado,
      valido_desde: expect.any(String),
      valido_hasta: expect.any(String),
      consentimiento: { version: expect.any(String), fecha: expect.any(String), ip: CLIENT_IP },
    });
    expect(await stored(o.profileId)).toHaveLength(1);

    const got = await call(o.u, 'GET', o.profileId);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ data });

    const del = await call(o.u, 'DELETE', o.profileId);
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ message: 'e.firma deleted' });
    expect(await stored(o.profileId)).toEqual([]);
    await refused(await call(o.u, 'GET', o.profileId), 404, 'Not Found', 'efirma_not_found');
    await refused(await call(o.u, 'DELETE', o.profileId), 404, 'Not Found', 'efirma_not_found');
  });

  it('a second PUT replaces the first (one e.firma per profile); PRO may store one too', async () => {
    const o = await owner('PRO');
    expect((await put(o.u, o.profileId, partsOf(issued(o.rfc)))).status).toBe(200);
    const second = issued(o.rfc);
    expect((await put(o.u, o.profileId, partsOf(second))).status).toBe(200);
    const rows = await stored(o.profileId);
    expect(rows.map((r) => r.numeroCertificado)).toEqual([second.numeroCertificado]);
  });

  describe('each refusal is a 400 with its code, and nothing is stored', () => {
    const DAY = 86_400_000;
    const cases: [string, (rfc: string) => Parts][] = [
      ['efirma_not_fiel', (rfc) => partsOf(issued(rfc, { csd: true }))],
      ['efirma_rfc_mismatch', () => partsOf(issued(rfcMoral(99)))],
      [
        'efirma_expired',
        (rfc) =>
          partsOf(
            issued(rfc, { desde: new Date(Date.now() - 800 * DAY), hasta: new Date(Date.now() - DAY) }),
          ),
      ],
      ['efirma_password_wrong', (rfc) => ({ ...partsOf(issued(rfc)), password: 'not-the-password' })],
      [
        'efirma_key_mismatch',
        (rfc) => {
          const other = issued(rfc);
          return { ...partsOf(issued(rfc)), key: other.key, password: other.password };
        },
      ],
      ['efirma_consent_required', (rfc) => ({ ...partsOf(issued(rfc)), consentimiento: undefined })],
      ['efirma_consent_required', (rfc) => ({ ...partsOf(issued(rfc)), consentimiento: 'false' })],
      [
        'efirma_certificate_unreadable',
        (rfc) => ({ ...partsOf(issued(rfc)), cer: Buffer.from('not a certificate').toString('base64') }),
      ],
    ];
    it.each(cases)('%s', async (code, parts) => {
      const o = await owner('BASIC');
      await refused(await put(o.u, o.profileId, parts(o.rfc)), 400, 'Bad Request', code);
      expect(await stored(o.profileId)).toEqual([]);
    });

    it('missing parts: validation_failed naming each of cer, key and password', async () => {
      const o = await owner('BASIC');
      const res = await put(o.u, o.profileId, { consentimiento: 'true' });
      const body = (await res.clone().json()) as { fields: { path: string }[] };
      await refused(res, 400, 'Bad Request', 'validation_failed');
      expect(body.fields.map((f) => f.path)).toEqual(['cer', 'key', 'password']);
      expect(await stored(o.profileId)).toEqual([]);
    });
  });

  it('a file over 64 KB is 413 (the body limit), a JSON body 415; nothing stored', async () => {
    const o = await owner('BASIC');
    const big = { ...partsOf(issued(o.rfc)), cer: Buffer.alloc(65 * 1024, 1).toString('base64') };
    const res = await put(o.u, o.profileId, big);
    expect(res.status).toBe(413);
    const json = await request(t, 'PUT', `/api/profiles/${o.profileId}/efirma`, {
      headers: bearer(o.u.token),
      body: { cer: 'x', key: 'y', password: 'z', consentimiento: true },
    });
    await refused(json, 415, 'Unsupported Media Type', 'unsupported_media_type');
    expect(await stored(o.profileId)).toEqual([]);
  });

  it('FREE is refused naming BASIC (403 plan_required) on PUT, GET and DELETE', async () => {
    const o = await owner(null);
    const res = await put(o.u, o.profileId, partsOf(issued(o.rfc)));
    const message = (await res.clone().json()).message as string;
    await refused(res, 403, 'Forbidden', 'plan_required');
    expect(message).toContain('BASIC');
    await refused(await call(o.u, 'GET', o.profileId), 403, 'Forbidden', 'plan_required');
    await refused(await call(o.u, 'DELETE', o.profileId), 403, 'Forbidden', 'plan_required');
    expect(await stored(o.profileId)).toEqual([]);
  });

  it('an API key of the owner is refused on PUT, GET and DELETE (403 session_required)', async () => {
    const o = await owner('BASIC', true);
    expect((await put(o.u, o.profileId, partsOf(issued(o.rfc)))).status).toBe(200);
    const made = await request(t, 'POST', '/api/api-keys', {
      headers: bearer(o.u.token),
      body: { name: 'script', scope: 'write' },
    });
    const key = ((await made.json()) as { data: { key: string } }).data.key;
    await refused(await put(key, o.profileId, partsOf(issued(o.rfc))), 403, 'Forbidden', 'session_required');
    await refused(await call(key, 'GET', o.profileId), 403, 'Forbidden', 'session_required');
    await refused(await call(key, 'DELETE', o.profileId), 403, 'Forbidden', 'session_required');
    await expect(caller(t, key).efirma.get({ profileId: o.profileId })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(await stored(o.profileId)).toHaveLength(1);
  });

  it('another user (on BASIC too) gets 403/404 on the owner’s profile: nothing read, replaced or erased', async () => {
    const o = await owner('BASIC');
    const e = issued(o.rfc);
    expect((await put(o.u, o.profileId, partsOf(e))).status).toBe(200);
    const intruder = await owner('BASIC');
    for (const res of [
      await put(intruder.u, o.profileId, partsOf(issued(o.rfc))),
      await call(intruder.u, 'GET', o.profileId),
      await call(intruder.u, 'DELETE', o.profileId),
    ]) {
      expect([403, 404]).toContain(res.status);
      expect(await res.text()).not.toContain(e.numeroCertificado);
    }
    expect((await stored(o.profileId)).map((r) => r.numeroCertificado)).toEqual([e.numeroCertificado]);
  });
});

describe('tRPC efirma.store, get and delete', () => {
  it('stores the files sent in base64, reads and deletes them as REST does', async () => {
    const o = await owner('PRO');
    const e = issued(o.rfc);
    const api = caller(t, o.u.token);
    const { data } = await api.efirma.store({
      profileId: o.profileId,
      cer: e.cer,
      key: e.key,
      password: e.password,
      consentimiento: true,
    });
    expect(data.numero_certificado).toBe(e.numeroCertificado);
    expect(await api.efirma.get({ profileId: o.profileId })).toEqual({ data });
    expect(await api.efirma.delete({ profileId: o.profileId })).toEqual({ message: 'e.firma deleted' });
    await expect(api.efirma.get({ profileId: o.profileId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a refusal is BAD_REQUEST with its code and stores nothing; text that is not base64 is invalid input', async () => {
    const o = await owner('BASIC');
    const e = issued(o.rfc);
    const api = caller(t, o.u.token);
    const input = { profileId: o.profileId, cer: e.cer, key: e.key, password: 'wrong', consentimiento: true };
    const err = await api.efirma.store(input).catch((x: unknown) => x);
    expect(err).toMatchObject({ code: 'BAD_REQUEST' });
    expect(JSON.stringify(err)).not.toContain(e.key.slice(0, 40));
    await expect(api.efirma.store({ ...input, password: e.password, cer: '%%%' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await stored(o.profileId)).toEqual([]);
  });
});

describe('the e.firma material never leaves', () => {
  it('no answer of this file and no log line holds a password or a key sent', () => {
    expect(secrets.length).toBeGreaterThan(10);
    expect(logged.length).toBeGreaterThan(0);
    const all = answered.join('\n') + logged.join('');
    for (const s of secrets) expect(all).not.toContain(s);
  });
});
