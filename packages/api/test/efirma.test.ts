// The stored e.firma (integrations.md §1, docs/sat-sync.md#efirma): accepted with consent, each
// refusal with its own code and nothing stored, encrypted at rest, and the key and password never in
// an answer, an error or a log line. Uses SAT's published test FIEL of EKU9003173C9 (fixtures/efirma).
import { readFileSync } from 'node:fs';
import { findUserByEmail } from '@folio/db/queries/users';
import { auditLog, efirmas } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../src/context';
import { AppError } from '../src/errors';
import type { Principal } from '../src/services/auth/principal';
import {
  type EfirmaUpload,
  openEfirmaForJob,
  readEfirma,
  removeEfirma,
  storeEfirma,
} from '../src/services/efirma/store-efirma';
import { caller, setPlan, signUp, startTestApi, type TestApi } from './harness';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/efirma/${name}`, import.meta.url));
const FIEL = { cer: fixture('fiel-EKU9003173C9.cer'), key: fixture('fiel-EKU9003173C9.key') };
const CSD = { cer: fixture('csd-EKU9003173C9.cer'), key: fixture('csd-EKU9003173C9.key') };
const PASSWORD = '12345678a';
/** Inside the test FIEL's validity (2023-05-18 … 2027-05-17). */
const NOW = new Date('2026-06-01T12:00:00Z');

let t: TestApi;
const logged: string[] = [];
beforeAll(async () => {
  t = await startTestApi();
  const capture = (level: string) => (obj: object, msg?: string) =>
    logged.push(`${level} ${JSON.stringify(obj)} ${msg ?? ''}`);
  t.deps.log = { info: capture('info'), warn: capture('warn'), error: capture('error') };
});
afterAll(() => t.close());

async function owner(plan: 'BASIC' | 'PRO' | null, rfc = 'EKU9003173C9', via: Principal['via'] = 'session') {
  const u = await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  const { data: p } = await caller(t, u.token).profiles.create({
    nombre: 'Escuela Kemper Urgate',
    rfc,
    tipo_persona: 'MORAL',
    regimenes_fiscales: ['601'],
  });
  const user = await findUserByEmail(t.handle.db, u.email);
  const principal: Principal = { user: user!, via, scope: 'write', session: null, apiKeyId: null };
  const ctx = createContext(t.deps, {
    requestId: 'req-efirma',
    token: null,
    tokenSource: null,
    method: 'PUT',
    origin: null,
    ip: '203.0.113.7',
    idempotencyKey: null,
    resHeaders: new Headers(),
  });
  return { ctx, principal, profileId: p.id };
}

const upload = (over: Partial<EfirmaUpload> = {}): EfirmaUpload => ({
  cer: FIEL.cer,
  key: FIEL.key,
  password: PASSWORD,
  consentimiento: true,
  ...over,
});

const rowsOf = async (profileId: string) =>
  t.handle.db.select().from(efirmas).where(eq(efirmas.profileId, profileId));

/** The refusal, checked to leave nothing stored and to quote neither the password nor the key. */
async function refusal(promise: Promise<unknown>, profileId: string) {
  const err = await promise.then(
    () => expect.unreachable('accepted'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  const e = err as AppError;
  expect(await rowsOf(profileId)).toEqual([]);
  expect(JSON.stringify({ message: e.message, fields: e.fields })).not.toContain(PASSWORD);
  return e;
}

describe('e.firma storage', () => {
  it('accepts SAT’s test FIEL for its RFC: answers the certificate facts and the consent, stores it encrypted', async () => {
    const { ctx, principal, profileId } = await owner('BASIC');
    const meta = await storeEfirma(ctx, principal, profileId, upload(), NOW);
    expect(meta).toEqual({
      rfc: 'EKU9003173C9',
      // The serial number 3330303031… read as bytes: ASCII digits.
      numero_certificado: '30001000000500003415',
      valido_desde: '2023-05-18T04:37:14.000Z',
      valido_hasta: '2027-05-17T04:37:14.000Z',
      consentimiento: { version: expect.any(String), fecha: NOW.toISOString(), ip: '203.0.113.7' },
    });
    expect(await readEfirma(ctx, principal, profileId)).toEqual(meta);

    const [row] = await rowsOf(profileId);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain(FIEL.key.toString('base64').slice(0, 40));
    expect(stored).not.toContain(FIEL.cer.toString('base64').slice(0, 40));

    const opened = await openEfirmaForJob(t.deps, profileId, 'test');
    expect(opened?.password).toBe(PASSWORD);
    expect(opened?.key.equals(FIEL.key)).toBe(true);
    expect(opened?.cer.equals(FIEL.cer)).toBe(true);
    const actions = await t.handle.db.select().from(auditLog).where(eq(auditLog.entityId, row!.id));
    expect(actions.map((a) => a.action).sort()).toEqual(['efirma.store', 'efirma.use']);
  });

  it('a ciphertext moved to another record does not open (additional data binds profile and record)', async () => {
    const a = await owner('PRO');
    await storeEfirma(a.ctx, a.principal, a.profileId, upload(), NOW);
    const [row] = await rowsOf(a.profileId);
    await t.handle.db.update(efirmas).set({ id: 'another-record' }).where(eq(efirmas.profileId, a.profileId));
    await expect(openEfirmaForJob(t.deps, a.profileId, 'test')).rejects.toThrow();
    expect(row?.keyVersion).toBe(1);
  });

  it('refuses a CSD (sello) instead of an e.firma: efirma_not_fiel', async () => {
    const { ctx, principal, profileId } = await owner('PRO');
    const e = await refusal(storeEfirma(ctx, principal, profileId, upload(CSD), NOW), profileId);
    expect([e.code, e.reason, e.fields?.[0]?.path]).toEqual(['BAD_REQUEST', 'efirma_not_fiel', 'cer']);
  });

  it('refuses an e.firma of another RFC than the profile’s: efirma_rfc_mismatch', async () => {
    const { ctx, principal, profileId } = await owner('PRO', 'ABC970701NN4');
    const e = await refusal(storeEfirma(ctx, principal, profileId, upload(), NOW), profileId);
    expect(e.reason).toBe('efirma_rfc_mismatch');
    expect(e.message).toContain('EKU9003173C9');
  });

  it('refuses an expired e.firma (the clock after valido_hasta): efirma_expired', async () => {
    const { ctx, principal, profileId } = await owner('PRO');
    const after = new Date('2027-05-17T04:37:15Z');
    const e = await refusal(storeEfirma(ctx, principal, profileId, upload(), after), profileId);
    expect(e.reason).toBe('efirma_expired');
  });

  it('refuses an e.firma before valido_desde: efirma_not_yet_valid', async () => {
    const { ctx, principal, profileId } = await owner('PRO');
    const before = new Date('2023-05-18T04:37:13Z');
    const e = await refusal(storeEfirma(ctx, principal, profileId, upload(), before), profileId);
    expect(e.reason).toBe('efirma_not_yet_valid');
  });

  it('refuses a wrong password: efirma_password_wrong, the password quoted nowhere', async () => {
    const { ctx, principal, profileId } = await owner('PRO');
    const wrong = 'not-the-password-9f3b';
    const e = await refusal(
      storeEfirma(ctx, principal, profileId, upload({ password: wrong }), NOW),
      profileId,
    );
    expect([e.reason, e.fields?.[0]?.path]).toEqual(['efirma_password_wrong', 'password']);
    expect(e.message).not.toContain(wrong);
    expect(logged.join('\n')).not.toContain(wrong);
  });

  it('refuses the key of another certificate: efirma_key_mismatch', async () => {
    const { ctx, principal, profileId } = await owner('PRO');
    // The CSD's key opens with the same password but is not the FIEL's.
    const e = await refusal(storeEfirma(ctx, principal, profileId, upload({ key: CSD.key }), NOW), profileId);
    expect([e.reason, e.fields?.[0]?.path]).toEqual(['efirma_key_mismatch', 'key']);
  });

  it('refuses a file that is no certificate: efirma_certificate_unreadable', async () => {
    const { ctx, principal, profileId } = await owner('PRO');
    const e = await refusal(
      storeEfirma(ctx, principal, profileId, upload({ cer: Buffer.from('not a certificate') }), NOW),
      profileId,
    );
    expect(e.reason).toBe('efirma_certificate_unreadable');
  });

  it('refuses without consentimiento: true: efirma_consent_required', async () => {
    const { ctx, principal, profileId } = await owner('PRO');
    const e = await refusal(
      storeEfirma(ctx, principal, profileId, upload({ consentimiento: false }), NOW),
      profileId,
    );
    expect([e.reason, e.fields?.[0]?.path]).toEqual(['efirma_consent_required', 'consentimiento']);
  });

  it('FREE is refused with 403 plan_required naming BASIC', async () => {
    const { ctx, principal, profileId } = await owner(null);
    const e = await refusal(storeEfirma(ctx, principal, profileId, upload(), NOW), profileId);
    expect([e.code, e.reason]).toEqual(['FORBIDDEN', 'plan_required']);
    expect(e.message).toContain('BASIC');
  });

  it('API keys may not store, read or delete it: session_required', async () => {
    const { ctx, principal, profileId } = await owner('PRO', 'EKU9003173C9', 'api_key');
    const e = await refusal(storeEfirma(ctx, principal, profileId, upload(), NOW), profileId);
    expect(e.reason).toBe('session_required');
    await expect(readEfirma(ctx, principal, profileId)).rejects.toMatchObject({ reason: 'session_required' });
    await expect(removeEfirma(ctx, principal, profileId)).rejects.toMatchObject({
      reason: 'session_required',
    });
  });

  it('DELETE erases the row; GET then answers 404', async () => {
    const { ctx, principal, profileId } = await owner('BASIC');
    await storeEfirma(ctx, principal, profileId, upload(), NOW);
    await removeEfirma(ctx, principal, profileId);
    expect(await rowsOf(profileId)).toEqual([]);
    await expect(readEfirma(ctx, principal, profileId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await openEfirmaForJob(t.deps, profileId, 'test')).toBeUndefined();
  });

  it('no log line of any of the above holds the password or the key', () => {
    const all = logged.join('\n');
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(FIEL.key.toString('base64').slice(0, 40));
  });
});
