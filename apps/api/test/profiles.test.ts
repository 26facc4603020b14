import { profiles } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  cookie,
  expectError,
  request,
  rfcMoral,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

// The HTTP shape of /api/profiles. The rules themselves (RFC, regimes, plan limits, frozen profiles)
// are tested next to the service, in packages/api/test/profiles.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const PROFILE_KEYS = [
  'created_at',
  'frozen',
  'frozen_at',
  'id',
  'nombre',
  'regimenes_fiscales',
  'rfc',
  'tipo_persona',
  'updated_at',
  'user_id',
  'validaciones_habilitadas',
];
const create = (u: TestUser, body: unknown) =>
  request(t, 'POST', '/api/profiles', { headers: bearer(u.token), body });
const update = (u: TestUser, id: string, body: unknown) =>
  request(t, 'PUT', `/api/profiles/${id}`, { headers: bearer(u.token), body });
const moral = (i = 1, extra: object = {}) => ({
  nombre: 'Comercial ABC',
  rfc: rfcMoral(i),
  tipo_persona: 'MORAL',
  ...extra,
});

async function created(u: TestUser, body: unknown) {
  const res = await create(u, body);
  expect(res.status).toBe(201);
  return (await res.json()).data;
}

describe('POST /api/profiles', () => {
  it('creates a profile (201) with the spec fields, default flags, not frozen, RFC upper-cased', async () => {
    const u = await signUp(t);
    const res = await create(u, {
      nombre: 'Ana Gómez',
      rfc: ' goma800101ab1 ',
      tipo_persona: 'FISICA',
      regimenes_fiscales: ['612', '626'],
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.message).toBeTypeOf('string');
    expect(Object.keys(body.data).sort()).toEqual(PROFILE_KEYS);
    expect(body.data).toMatchObject({
      user_id: u.id,
      nombre: 'Ana Gómez',
      rfc: 'GOMA800101AB1',
      tipo_persona: 'FISICA',
      regimenes_fiscales: ['612', '626'],
      frozen: false,
      frozen_at: null,
      validaciones_habilitadas: {
        validarRFCIngresos: true,
        validarRFCGastos: true,
        validarRegimenFiscal: true,
        validarUUIDDuplicado: true,
        bloquearSiRFCNoCoincide: false,
        bloquearSiRegimenNoCoincide: false,
      },
    });
  });

  it('answers 422 Validation Error for a missing field or an invalid tipo_persona', async () => {
    const u = await signUp(t);
    const cases: [object, RegExp][] = [
      [{ rfc: rfcMoral(1), tipo_persona: 'MORAL' }, /^nombre: /],
      [{ nombre: 'X', tipo_persona: 'MORAL' }, /^rfc: /],
      [{ nombre: 'X', rfc: rfcMoral(1) }, /^tipo_persona: /],
      [{ nombre: 'X', rfc: rfcMoral(1), tipo_persona: 'EMPRESA' }, /^tipo_persona: must be FISICA or MORAL/],
      [
        { nombre: 'X', rfc: rfcMoral(1), tipo_persona: 'MORAL', regimenes_fiscales: '601' },
        /^regimenes_fiscales/,
      ],
    ];
    for (const [body, why] of cases)
      expect(await expectError(await create(u, body), 422, 'Validation Error')).toMatch(why);
  });

  it('never takes id, user_id, frozen or timestamps from the body', async () => {
    const u = await signUp(t);
    const data = await created(u, {
      ...moral(2),
      id: 'chosen-id',
      user_id: 'someone-else',
      frozen: true,
      frozen_reason: 'PLAN_LIMIT',
      frozen_at: '2020-01-01T00:00:00.000Z',
      created_at: '2020-01-01T00:00:00.000Z',
    });
    expect(data.id).not.toBe('chosen-id');
    expect(data).toMatchObject({ user_id: u.id, frozen: false, frozen_at: null });
    expect(data.created_at.startsWith('2020')).toBe(false);
  });

  it('answers 401 without a token', async () => {
    await expectError(await request(t, 'POST', '/api/profiles', { body: moral(1) }), 401, 'Unauthorized');
  });
});

describe('PUT /api/profiles/{profileId}', () => {
  it('changes only the supplied fields, and only the named flags', async () => {
    const u = await signUp(t);
    const p = await created(u, moral(10, { regimenes_fiscales: ['601'] }));
    const res = await update(u, p.id, {
      nombre: 'Nuevo nombre',
      validaciones_habilitadas: { bloquearSiRFCNoCoincide: true },
    });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({
      nombre: 'Nuevo nombre',
      rfc: p.rfc,
      regimenes_fiscales: ['601'],
      frozen: false,
    });
    expect(data.validaciones_habilitadas).toEqual({
      ...p.validaciones_habilitadas,
      bloquearSiRFCNoCoincide: true,
    });
    expect(new Date(data.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(p.updated_at).getTime());
  });

  it('answers 422 for an invalid tipo_persona and ignores fields the caller does not own', async () => {
    const u = await signUp(t);
    const p = await created(u, moral(12));
    await expectError(await update(u, p.id, { tipo_persona: 'otra' }), 422, 'Validation Error');
    const res = await update(u, p.id, {
      user_id: 'x',
      frozen: true,
      id: 'y',
      created_at: '2001-01-01T00:00:00Z',
    });
    expect((await res.json()).data).toMatchObject({
      id: p.id,
      user_id: u.id,
      frozen: false,
      created_at: p.created_at,
    });
  });

  it("answers 403 on another user's profile and 404 on a missing one", async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const p = await created(owner, moral(13));
    await expectError(await update(other, p.id, { nombre: 'mío' }), 403, 'Forbidden');
    await expectError(await update(owner, 'no-such-profile', { nombre: 'x' }), 404, 'Not Found');
    const [row] = await t.handle.db.select().from(profiles).where(eq(profiles.id, p.id));
    expect(row?.nombre).toBe('Comercial ABC');
  });
});

describe('reading and deleting profiles', () => {
  it('lists only your profiles, and reads one; others answer 403, missing 404', async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const p = await created(owner, moral(14));
    await created(other, moral(14));
    const list = await (await request(t, 'GET', '/api/profiles', { headers: bearer(owner.token) })).json();
    expect(list.data.map((x: { id: string }) => x.id)).toEqual([p.id]);
    const one = await request(t, 'GET', `/api/profiles/${p.id}`, { headers: cookie(owner.token) });
    expect((await one.json()).data).toEqual(p);
    await expectError(
      await request(t, 'GET', `/api/profiles/${p.id}`, { headers: bearer(other.token) }),
      403,
      'Forbidden',
    );
    await expectError(
      await request(t, 'GET', '/api/profiles/nope', { headers: bearer(owner.token) }),
      404,
      'Not Found',
    );
  });

  it('deletes a profile (then 404), and not someone else’s', async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const p = await created(owner, moral(15));
    await expectError(
      await request(t, 'DELETE', `/api/profiles/${p.id}`, { headers: bearer(other.token) }),
      403,
      'Forbidden',
    );
    const res = await request(t, 'DELETE', `/api/profiles/${p.id}`, { headers: bearer(owner.token) });
    expect(await res.json()).toEqual({ message: 'Profile deleted' });
    await expectError(
      await request(t, 'GET', `/api/profiles/${p.id}`, { headers: bearer(owner.token) }),
      404,
      'Not Found',
    );
  });
});
