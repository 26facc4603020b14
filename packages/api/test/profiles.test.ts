import { auditLog, profiles } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  rfcFisica,
  rfcMoral,
  setPlan,
  signUp,
  startTestApi,
  type TestApi,
  type TestUser,
} from './harness';

// The rules of profiles (RFC, regimes, plan limits, frozen profiles), through the tRPC caller.
// Their HTTP shape (statuses, bodies, 401/403/404 on the routes) is tested in apps/api/test/profiles.test.ts.

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

type Fields = Parameters<ReturnType<typeof caller>['profiles']['create']>[0];
const moral = (i = 1, extra: object = {}): Fields => ({
  nombre: 'Comercial ABC',
  rfc: rfcMoral(i),
  tipo_persona: 'MORAL',
  ...extra,
});
const create = (u: TestUser, fields: Fields) => caller(t, u.token).profiles.create(fields);
const created = async (u: TestUser, fields: Fields) => (await create(u, fields)).data;
const update = (u: TestUser, profileId: string, patch: Partial<Fields>) =>
  caller(t, u.token).profiles.update({ profileId, ...patch });
const freeze = (profileId: string) =>
  t.handle.db
    .update(profiles)
    .set({ frozen: true, frozenReason: 'PLAN_LIMIT', frozenAt: new Date() })
    .where(eq(profiles.id, profileId));
const profilesOf = (userId: string) => t.handle.db.select().from(profiles).where(eq(profiles.userId, userId));
const refused = (code: string, message?: RegExp) =>
  message ? { code, message: expect.stringMatching(message) } : { code };

describe('the RFC and regime rules', () => {
  it('accepts RFCs with Ñ and & and a check digit that does not match', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    await created(u, { nombre: 'Ñandú', rfc: 'ÑAND800101AB1', tipo_persona: 'FISICA' });
    await created(u, { nombre: 'A&B', rfc: 'A&B970701NN9', tipo_persona: 'MORAL' });
  });

  it('refuses an invalid RFC naming the rule that failed (format, date, generic, person type)', async () => {
    const u = await signUp(t);
    const cases: [Pick<Fields, 'rfc' | 'tipo_persona'>, RegExp][] = [
      [{ rfc: 'NOT-AN-RFC', tipo_persona: 'MORAL' }, /RFC format/],
      [{ rfc: 'ABC990230XY1', tipo_persona: 'MORAL' }, /RFC date/],
      [{ rfc: 'XAXX010101000', tipo_persona: 'FISICA' }, /RFC generic/],
      [{ rfc: 'XEXX010101000', tipo_persona: 'FISICA' }, /RFC generic/],
      [{ rfc: 'ABC970701NN3', tipo_persona: 'FISICA' }, /tipo_persona/],
      [{ rfc: 'GOMA800101AB1', tipo_persona: 'MORAL' }, /tipo_persona/],
    ];
    for (const [fields, rule] of cases)
      await expect(create(u, { nombre: 'X', ...fields })).rejects.toMatchObject(refused('BAD_REQUEST', rule));
  });

  it('refuses a regime code that does not exist or does not apply to the person type, storing nothing', async () => {
    const u = await signUp(t);
    await expect(create(u, moral(1, { regimenes_fiscales: ['601', '999'] }))).rejects.toMatchObject(
      refused('UNPROCESSABLE_CONTENT', /999/),
    );
    await expect(create(u, moral(1, { regimenes_fiscales: ['612'] }))).rejects.toMatchObject(
      refused('UNPROCESSABLE_CONTENT', /612.*MORAL/),
    );
    expect(await profilesOf(u.id)).toHaveLength(0);
  });

  it('refuses a second profile with the same RFC for the same user (conflict)', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    await created(u, moral(3));
    await expect(create(u, moral(3, { nombre: 'Otra' }))).rejects.toMatchObject(refused('CONFLICT'));
  });

  it('re-checks RFC, person type and regimes together on update', async () => {
    const u = await signUp(t);
    const p = await created(u, moral(11, { regimenes_fiscales: ['601'] }));
    await expect(update(u, p.id, { rfc: 'BAD' })).rejects.toMatchObject(refused('BAD_REQUEST'));
    await expect(update(u, p.id, { tipo_persona: 'FISICA' })).rejects.toMatchObject(refused('BAD_REQUEST'));
    await expect(update(u, p.id, { tipo_persona: 'FISICA', rfc: rfcFisica(11) })).rejects.toMatchObject(
      refused('UNPROCESSABLE_CONTENT', /601/),
    );
    const ok = await update(u, p.id, {
      tipo_persona: 'FISICA',
      rfc: rfcFisica(11),
      regimenes_fiscales: ['612'],
    });
    expect(ok.data).toMatchObject({ tipo_persona: 'FISICA', regimenes_fiscales: ['612'] });
  });
});

describe('the plan profile limit', () => {
  it('refuses past the plan profile count: FREE allows 1, BASIC 3', async () => {
    const u = await signUp(t);
    await created(u, moral(4));
    await expect(create(u, moral(5))).rejects.toMatchObject(refused('FORBIDDEN', /FREE plan allows 1/));
    await setPlan(t, u.id, 'BASIC');
    await created(u, moral(5));
    await created(u, moral(6));
    await expect(create(u, moral(7))).rejects.toMatchObject(refused('FORBIDDEN'));
  });

  it('applies FREE limits when the paid subscription is not in good standing', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO', 'UNPAID');
    await created(u, moral(8));
    await expect(create(u, moral(9))).rejects.toMatchObject(refused('FORBIDDEN'));
  });

  it('decides the limit atomically: of 8 concurrent creates on BASIC exactly 3 succeed', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'BASIC');
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => create(u, moral(40 + i))));
    const outcomes = results.map((r) =>
      r.status === 'fulfilled' ? 'created' : (r.reason as { code: string }).code,
    );
    expect(outcomes.sort()).toEqual([
      'FORBIDDEN',
      'FORBIDDEN',
      'FORBIDDEN',
      'FORBIDDEN',
      'FORBIDDEN',
      'created',
      'created',
      'created',
    ]);
    expect(await profilesOf(u.id)).toHaveLength(3);
  });

  it('refuses another user’s profile and applies the same rules to every caller', async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const { data } = await caller(t, owner.token).profiles.create(moral(18));
    await expect(caller(t, other.token).profiles.get({ profileId: data.id })).rejects.toMatchObject(
      refused('FORBIDDEN'),
    );
    await expect(create(owner, { ...moral(19), rfc: 'BAD' })).rejects.toMatchObject(refused('BAD_REQUEST'));
    await expect(create(owner, moral(20))).rejects.toMatchObject(refused('FORBIDDEN'));
  });
});

describe('frozen profiles', () => {
  it('stay readable but every write on them is refused', async () => {
    const u = await signUp(t);
    const p = await created(u, moral(16));
    await freeze(p.id);
    const read = await caller(t, u.token).profiles.get({ profileId: p.id });
    expect(read.data).toMatchObject({ frozen: true, frozen_reason: 'PLAN_LIMIT' });
    expect(read.data.frozen_at).toMatch(/^\d{4}-/);
    await expect(update(u, p.id, { nombre: 'x' })).rejects.toMatchObject(refused('FORBIDDEN', /frozen/));
    await expect(caller(t, u.token).profiles.delete({ profileId: p.id })).rejects.toMatchObject(
      refused('FORBIDDEN'),
    );
  });

  it('deleting a usable profile lets the oldest frozen one take its place within the plan', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'BASIC');
    const first = await created(u, moral(30));
    const second = await created(u, moral(31));
    await setPlan(t, u.id, 'BASIC', 'UNPAID'); // FREE limits: 1 profile
    await freeze(second.id);
    await caller(t, u.token).profiles.delete({ profileId: first.id });
    const read = await caller(t, u.token).profiles.get({ profileId: second.id });
    expect(read.data).toMatchObject({ frozen: false, frozen_at: null });
    expect(read.data).not.toHaveProperty('frozen_reason');
  });
});

describe('the audit log', () => {
  it('records create, update and delete of a profile', async () => {
    const u = await signUp(t);
    const p = await created(u, moral(17));
    await update(u, p.id, { nombre: 'y' });
    await caller(t, u.token).profiles.delete({ profileId: p.id });
    const rows = await t.handle.db.select().from(auditLog).where(eq(auditLog.entityId, p.id));
    expect(rows.map((r) => r.action).sort()).toEqual(['profile.create', 'profile.delete', 'profile.update']);
  });
});
