import { auditLog, profiles } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  caller,
  cookie,
  expectError,
  request,
  rfcFisica,
  rfcMoral,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

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

  it('accepts RFCs with Ñ and & and a check digit that does not match', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    await created(u, { nombre: 'Ñandú', rfc: 'ÑAND800101AB1', tipo_persona: 'FISICA' });
    await created(u, { nombre: 'A&B', rfc: 'A&B970701NN9', tipo_persona: 'MORAL' });
  });

  it('answers 400 Bad Request naming the RFC rule that failed', async () => {
    const u = await signUp(t);
    const cases: [object, RegExp][] = [
      [{ rfc: 'NOT-AN-RFC', tipo_persona: 'MORAL' }, /RFC format/],
      [{ rfc: 'ABC990230XY1', tipo_persona: 'MORAL' }, /RFC date/],
      [{ rfc: 'XAXX010101000', tipo_persona: 'FISICA' }, /RFC generic/],
      [{ rfc: 'XEXX010101000', tipo_persona: 'FISICA' }, /RFC generic/],
      [{ rfc: 'ABC970701NN3', tipo_persona: 'FISICA' }, /tipo_persona/],
      [{ rfc: 'GOMA800101AB1', tipo_persona: 'MORAL' }, /tipo_persona/],
    ];
    for (const [fields, rule] of cases) {
      expect(await expectError(await create(u, { nombre: 'X', ...fields }), 400, 'Bad Request')).toMatch(
        rule,
      );
    }
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

  it('answers 422 naming a regime code that does not exist or does not apply to the person type', async () => {
    const u = await signUp(t);
    const unknown = await create(u, moral(1, { regimenes_fiscales: ['601', '999'] }));
    expect(await expectError(unknown, 422, 'Validation Error')).toMatch(/999/);
    const fisicaOnly = await create(u, moral(1, { regimenes_fiscales: ['612'] }));
    expect(await expectError(fisicaOnly, 422, 'Validation Error')).toMatch(/612.*MORAL/);
    expect(await t.handle.db.select().from(profiles).where(eq(profiles.userId, u.id))).toHaveLength(0);
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

  it('refuses a second profile with the same RFC for the same user with 409', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    await created(u, moral(3));
    await expectError(await create(u, moral(3, { nombre: 'Otra' })), 409, 'Conflict');
  });

  it('answers 403 past the plan profile count: FREE allows 1, BASIC 3', async () => {
    const u = await signUp(t);
    await created(u, moral(4));
    expect(await expectError(await create(u, moral(5)), 403, 'Forbidden')).toMatch(/FREE plan allows 1/);
    await setPlan(t, u.id, 'BASIC');
    await created(u, moral(5));
    await created(u, moral(6));
    await expectError(await create(u, moral(7)), 403, 'Forbidden');
  });

  it('applies FREE limits when the paid subscription is not in good standing', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO', 'UNPAID');
    await created(u, moral(8));
    await expectError(await create(u, moral(9)), 403, 'Forbidden');
  });

  it('decides the limit atomically: of 8 concurrent creates on BASIC exactly 3 succeed', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'BASIC');
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => create(u, moral(40 + i))));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 403, 403, 403, 403, 403]);
    expect(await t.handle.db.select().from(profiles).where(eq(profiles.userId, u.id))).toHaveLength(3);
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

  it('re-checks RFC, person type and regimes together', async () => {
    const u = await signUp(t);
    const p = await created(u, moral(11, { regimenes_fiscales: ['601'] }));
    await expectError(await update(u, p.id, { rfc: 'BAD' }), 400, 'Bad Request');
    await expectError(await update(u, p.id, { tipo_persona: 'FISICA' }), 400, 'Bad Request');
    const wrongRegime = await update(u, p.id, { tipo_persona: 'FISICA', rfc: rfcFisica(11) });
    expect(await expectError(wrongRegime, 422, 'Validation Error')).toMatch(/601/);
    const ok = await update(u, p.id, {
      tipo_persona: 'FISICA',
      rfc: rfcFisica(11),
      regimenes_fiscales: ['612'],
    });
    expect((await ok.json()).data).toMatchObject({ tipo_persona: 'FISICA', regimenes_fiscales: ['612'] });
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

  it('keeps frozen profiles readable but refuses every write on them with 403', async () => {
    const u = await signUp(t);
    const p = await created(u, moral(16));
    await t.handle.db
      .update(profiles)
      .set({ frozen: true, frozenReason: 'PLAN_LIMIT', frozenAt: new Date() })
      .where(eq(profiles.id, p.id));
    const read = await (
      await request(t, 'GET', `/api/profiles/${p.id}`, { headers: bearer(u.token) })
    ).json();
    expect(read.data).toMatchObject({ frozen: true, frozen_reason: 'PLAN_LIMIT' });
    expect(read.data.frozen_at).toMatch(/^\d{4}-/);
    expect(await expectError(await update(u, p.id, { nombre: 'x' }), 403, 'Forbidden')).toMatch(/frozen/);
    await expectError(
      await request(t, 'DELETE', `/api/profiles/${p.id}`, { headers: bearer(u.token) }),
      403,
      'Forbidden',
    );
  });

  it('deleting a usable profile lets the oldest frozen one take its place within the plan', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'BASIC');
    const first = await created(u, moral(30));
    const second = await created(u, moral(31));
    await setPlan(t, u.id, 'BASIC', 'UNPAID'); // FREE limits: 1 profile
    await t.handle.db
      .update(profiles)
      .set({ frozen: true, frozenReason: 'PLAN_LIMIT', frozenAt: new Date() })
      .where(eq(profiles.id, second.id));
    await request(t, 'DELETE', `/api/profiles/${first.id}`, { headers: bearer(u.token) });
    const read = await (
      await request(t, 'GET', `/api/profiles/${second.id}`, { headers: bearer(u.token) })
    ).json();
    expect(read.data).toMatchObject({ frozen: false, frozen_at: null });
    expect(read.data).not.toHaveProperty('frozen_reason');
  });

  it('records create, update and delete in the audit log', async () => {
    const u = await signUp(t);
    const p = await created(u, moral(17));
    await update(u, p.id, { nombre: 'y' });
    await request(t, 'DELETE', `/api/profiles/${p.id}`, { headers: bearer(u.token) });
    const rows = await t.handle.db.select().from(auditLog).where(eq(auditLog.entityId, p.id));
    expect(rows.map((r) => r.action).sort()).toEqual(['profile.create', 'profile.delete', 'profile.update']);
  });
});

describe('profiles through the tRPC caller', () => {
  it('applies the same rules and permissions', async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const { data } = await caller(t, owner.token).profiles.create(moral(18) as never);
    await expect(caller(t, other.token).profiles.get({ profileId: data.id })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(
      caller(t, owner.token).profiles.create({ ...moral(19), rfc: 'BAD' } as never),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(caller(t, owner.token).profiles.create(moral(20) as never)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });
});
