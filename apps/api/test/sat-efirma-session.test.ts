// From a stored e.firma to SAT (integrations.md §1): an e.firma the simulator issued is stored,
// production's sign-in on upload goes through the simulator (refused or unreachable: nothing stored),
// and the sync job's session opens it and signs in. Touches the database: run on both.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createContext, type Principal } from '@folio/api';
import { type FetchLike, openSatSession, type SatSettings, storeEfirma } from '@folio/api/sat-sync';
import { findUserByEmail } from '@folio/db/queries/users';
import { efirmas } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger';
import {
  APP_URL,
  createProfile,
  request,
  rfcMoral,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
} from './harness';

let t: TestApp;
/** Every line the app logs, at the most verbose level. */
const logged: string[] = [];
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

const inApp =
  (rewrite: (url: string, init: RequestInit) => RequestInit = (_u, i) => i): FetchLike =>
  (url, init) =>
    Promise.resolve(t.app.request(url, rewrite(url, init)));

/** Production's checks, against the in-process simulator (test certificates allowed: it issues them). */
const strict = (fetch: FetchLike = inApp()): SatSettings => ({
  target: { kind: 'simulator', origin: APP_URL },
  fetch,
  refuseTestCertificates: false,
  authenticateOnUpload: true,
});

async function ownerWithEfirmaFiles(rfc: string) {
  const u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  const profile = await createProfile(t, u, {
    nombre: 'Comercial',
    rfc,
    tipo_persona: 'MORAL',
    regimenes_fiscales: ['601'],
  });
  const user = await findUserByEmail(t.handle.db, u.email);
  const principal: Principal = { user: user!, via: 'session', scope: 'write', session: null, apiKeyId: null };
  const res = await request(t, 'POST', '/__dev/sat/efirma', { body: { rfc } });
  const e = ((await res.json()) as { data: { cer: string; key: string; password: string } }).data;
  const upload = {
    cer: Buffer.from(e.cer, 'base64'),
    key: Buffer.from(e.key, 'base64'),
    password: e.password,
    consentimiento: true,
  };
  const ctxWith = (sat: SatSettings) =>
    createContext(
      { ...t.deps, config: { ...t.deps.config, sat } },
      {
        requestId: randomUUID(),
        token: null,
        tokenSource: null,
        method: 'PUT',
        origin: null,
        ip: '198.51.100.4',
        idempotencyKey: null,
        resHeaders: new Headers(),
      },
    );
  return { profileId: profile.id, principal, upload, ctxWith };
}

const stored = async (profileId: string) =>
  t.handle.db.select().from(efirmas).where(eq(efirmas.profileId, profileId));

describe('stored e.firma and SAT', () => {
  it('an e.firma the simulator issued is accepted; with sign-in on upload the simulator authenticates it first', async () => {
    const o = await ownerWithEfirmaFiles(rfcMoral(1));
    const meta = await storeEfirma(o.ctxWith(strict()), o.principal, o.profileId, o.upload);
    expect(meta.rfc).toBe(rfcMoral(1));
    expect(meta.numero_certificado).toMatch(/^\d{20}$/);
    expect(await stored(o.profileId)).toHaveLength(1);
  });

  it('sign-in on upload refused by SAT (a bad signature reaches it): efirma_refused_by_sat, nothing stored', async () => {
    const o = await ownerWithEfirmaFiles(rfcMoral(2));
    const tampered = inApp((url, init) =>
      url.endsWith('/ws/autenticacion')
        ? {
            ...init,
            body: String(init.body).replace(/<u:Created>[^<]+/, '<u:Created>2000-01-01T00:00:00.000Z'),
          }
        : init,
    );
    await expect(
      storeEfirma(o.ctxWith(strict(tampered)), o.principal, o.profileId, o.upload),
    ).rejects.toMatchObject({
      reason: 'efirma_refused_by_sat',
    });
    expect(await stored(o.profileId)).toEqual([]);
  });

  it('SAT unreachable at upload (fail-next): 503, nothing stored; the next try stores it', async () => {
    const o = await ownerWithEfirmaFiles(rfcMoral(3));
    await request(t, 'POST', '/__dev/sat/fail-next');
    await expect(storeEfirma(o.ctxWith(strict()), o.principal, o.profileId, o.upload)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(await stored(o.profileId)).toEqual([]);
    await storeEfirma(o.ctxWith(strict()), o.principal, o.profileId, o.upload);
    expect(await stored(o.profileId)).toHaveLength(1);
  });

  it('the sync job’s session opens the stored e.firma and signs in to the simulator; none without one', async () => {
    const o = await ownerWithEfirmaFiles(rfcMoral(4));
    await storeEfirma(o.ctxWith(strict()), o.principal, o.profileId, o.upload);
    const deps = { db: t.handle.db, config: { ...t.deps.config, sat: strict() } };
    const gw = await openSatSession(deps, o.profileId, 'test sign-in');
    expect(gw?.rfc).toBe(rfcMoral(4));
    await expect(gw?.authenticate()).resolves.toMatchObject({ expires: expect.any(Date) });
    const other = await ownerWithEfirmaFiles(rfcMoral(5));
    expect(await openSatSession(deps, other.profileId, 'test')).toBeUndefined();
  });
});

describe('the e.firma material in logs', () => {
  it('no log line of the flows above holds a key, a password or a SAT token', async () => {
    const o = await ownerWithEfirmaFiles(rfcMoral(6));
    await storeEfirma(o.ctxWith(strict()), o.principal, o.profileId, o.upload);
    const gw = await openSatSession(
      { db: t.handle.db, config: { ...t.deps.config, sat: strict() } },
      o.profileId,
      'log check',
    );
    await gw?.authenticate();
    // What an error report would carry if a caller logged the material by mistake is scrubbed too.
    t.deps.log.error(
      {
        upload: { key: o.upload.key.toString('base64'), password: o.upload.password },
        headers: { Authorization: 'WRAP access_token="tok"' },
      },
      'scrub check',
    );
    const all = logged.join('');
    expect(logged.length).toBeGreaterThan(0);
    expect(all).not.toContain(o.upload.password);
    expect(all).not.toContain(o.upload.key.toString('base64').slice(0, 40));
    expect(all).not.toContain('access_token');
  });
});
