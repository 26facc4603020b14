import { randomBytes } from 'node:crypto';
import { manualExpenses } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  cookie,
  createProfile,
  expectError,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

// The HTTP shape of periods, manual expenses and the expense list. The rules of periods, manual
// expenses and the list are tested next to the services, in packages/api/test/expenses.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ME = { rfc: 'GOMA800101AB1', nombre: 'Ana Gómez', regimen: '612' };

async function setup(plan?: 'BASIC' | 'PRO') {
  const u = await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  const p = await createProfile(t, u, {
    nombre: ME.nombre,
    rfc: ME.rfc,
    tipo_persona: 'FISICA',
    regimenes_fiscales: ['612'],
  });
  return { u, p };
}

const openPeriod = async (u: TestUser, profileId: string, año: number, mes: number) => {
  const res = await request(t, 'POST', '/api/periods', {
    headers: bearer(u.token),
    body: { profile_id: profileId, año, mes },
  });
  return { status: res.status, data: (await res.json()).data };
};

const accrue = (u: TestUser, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  request(t, 'POST', '/api/accrued-expenses', { headers: { ...cookie(u.token), ...headers }, body });

describe('accounting periods', () => {
  it('opens one period per profile and month: 201 new, 200 existing with the same id', async () => {
    const { u, p } = await setup();
    const first = await openPeriod(u, p.id, 2025, 3);
    const again = await openPeriod(u, p.id, 2025, 3);
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.data.id).toBe(first.data.id);
    expect(first.data).toMatchObject({ profile_id: p.id, año: 2025, mes: 3, estado: 'ABIERTO' });
    expect(Object.keys(first.data).sort()).toEqual([
      'año',
      'created_at',
      'estado',
      'id',
      'mes',
      'profile_id',
      'updated_at',
    ]);
  });

  it('validates año and mes', async () => {
    const { u, p } = await setup();
    for (const [año, mes] of [
      [2025, 13],
      [2025, 0],
      [1800, 1],
    ]) {
      const res = await request(t, 'POST', '/api/periods', {
        headers: bearer(u.token),
        body: { profile_id: p.id, año, mes },
      });
      await expectError(res, 400, 'Bad Request');
    }
  });
});

describe('POST /api/accrued-expenses', () => {
  it('answers 400 for a bad body: missing fields, type other than manual, negative amounts, impossible dates', async () => {
    const { u, p } = await setup();
    const { data: period } = await openPeriod(u, p.id, 2025, 2);
    const ok = {
      profile_id: p.id,
      period_id: period.id,
      concept: 'x',
      subtotal: 10,
      fecha: '2025-02-10',
      type: 'manual',
    };
    const bad: Record<string, unknown>[] = [
      { ...ok, concept: undefined },
      { ...ok, subtotal: undefined },
      { ...ok, fecha: undefined },
      { ...ok, type: 'automatic' },
      { ...ok, type: undefined },
      { ...ok, subtotal: -1 },
      { ...ok, iva_amount: -0.01 },
      { ...ok, fecha: '2025-02-30' },
      { ...ok, fecha: '10/02/2025' },
      { ...ok, subtotal: '10' },
      { ...ok, fecha: '2025-03-01' },
    ];
    for (const body of bad) await expectError(await accrue(u, body), 400, 'Bad Request');
    await expectError(await accrue(u, 'not json' as never), 400, 'Bad Request');
    expect(await t.handle.db.select().from(manualExpenses).where(eq(manualExpenses.userId, u.id))).toEqual(
      [],
    );
  });

  it('answers 401 without a token', async () => {
    await expectError(await request(t, 'POST', '/api/accrued-expenses', { body: {} }), 401, 'Unauthorized');
  });

  it('replays a retried request with the same Idempotency-Key and creates nothing new; another body is 409', async () => {
    const { u, p } = await setup();
    const { data: period } = await openPeriod(u, p.id, 2025, 7);
    const body = {
      profile_id: p.id,
      period_id: period.id,
      concept: 'Luz',
      subtotal: 500,
      iva_amount: 80,
      fecha: '2025-07-03',
      type: 'manual',
    };
    const key = { 'idempotency-key': 'retry-7f3a' };
    const first = await accrue(u, body, key);
    const second = await accrue(u, body, key);
    expect(second.status).toBe(201);
    expect(await second.json()).toEqual(await first.json());
    expect(
      await t.handle.db.select().from(manualExpenses).where(eq(manualExpenses.userId, u.id)),
    ).toHaveLength(1);
    await expectError(await accrue(u, { ...body, subtotal: 501 }, key), 409, 'Conflict');
    expect((await accrue(u, body, { 'idempotency-key': 'another-key' })).status).toBe(201);
  });

  it('refuses an Idempotency-Key longer than 255 or with unprintable characters: 400, nothing created', async () => {
    const { u, p } = await setup();
    const { data: period } = await openPeriod(u, p.id, 2025, 6);
    const body = {
      profile_id: p.id,
      period_id: period.id,
      concept: 'Agua',
      subtotal: 100,
      fecha: '2025-06-03',
      type: 'manual',
    };
    // Random, so no compression squeezes it into a btree key: unchecked, it was a 500.
    for (const key of [randomBytes(1500).toString('hex'), 'k'.repeat(256), 'tab\there']) {
      await expectError(await accrue(u, body, { 'idempotency-key': key }), 400, 'Bad Request');
    }
    expect(
      await t.handle.db.select().from(manualExpenses).where(eq(manualExpenses.userId, u.id)),
    ).toHaveLength(0);
    expect((await accrue(u, body, { 'idempotency-key': 'k'.repeat(255) })).status).toBe(201);
  });

  it('counts manual expenses per month against the plan (FREE: 50) with 429 and Retry-After', async () => {
    const { u, p } = await setup();
    const { data: period } = await openPeriod(u, p.id, 2025, 8);
    const body = {
      profile_id: p.id,
      period_id: period.id,
      concept: 'x',
      subtotal: 1,
      fecha: '2025-08-01',
      type: 'manual',
    };
    for (let i = 0; i < 50; i++) expect((await accrue(u, body)).status).toBe(201);
    const res = await accrue(u, body);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectError(res, 429, 'Too Many Requests');
  });
});

describe('a manual expense paid, and its supplier', () => {
  const body = (profileId: string, periodId: string) => ({
    profile_id: profileId,
    period_id: periodId,
    concept: 'Papelería',
    subtotal: 1000,
    iva_amount: 160,
    fecha: '2025-03-10',
    type: 'manual',
  });
  const patch = (u: TestUser, id: string, payment: unknown) =>
    request(t, 'PATCH', `/api/accrued-expenses/${id}`, { headers: bearer(u.token), body: payment });

  it('POST takes is_paid, payment_date and the supplier; GET /api/expenses lists them', async () => {
    const { u, p } = await setup();
    const { data: period } = await openPeriod(u, p.id, 2025, 3);
    const res = await accrue(u, {
      ...body(p.id, period.id),
      is_paid: true,
      payment_date: '2025-03-12',
      rfc_emisor: 'EKU9003173C9',
      nombre_emisor: 'Escuela Kemper Urgate',
    });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toMatchObject({
      is_paid: true,
      payment_date: '2025-03-12',
      rfc_emisor: 'EKU9003173C9',
      nombre_emisor: 'Escuela Kemper Urgate',
    });
    const listed = await request(t, 'GET', `/api/expenses?profile_id=${p.id}`, { headers: cookie(u.token) });
    expect((await listed.json()).data).toEqual([data]);
  });

  it('POST: is_paid without payment_date is a 400 saying so, and a bad supplier RFC too; nothing stored', async () => {
    const { u, p } = await setup();
    const { data: period } = await openPeriod(u, p.id, 2025, 3);
    const message = await expectError(
      await accrue(u, { ...body(p.id, period.id), is_paid: true }),
      400,
      'Bad Request',
    );
    expect(message).toBe('payment_date: required when is_paid is true');
    for (const bad of [
      { payment_date: '2025-03-12' },
      { is_paid: 'yes', payment_date: '2025-03-12' },
      { is_paid: true, payment_date: '2025-02-30' },
      { rfc_emisor: 'EKU9003173' },
    ]) {
      await expectError(await accrue(u, { ...body(p.id, period.id), ...bad }), 400, 'Bad Request');
    }
    expect(await t.handle.db.select().from(manualExpenses).where(eq(manualExpenses.userId, u.id))).toEqual(
      [],
    );
  });

  it('PATCH /api/accrued-expenses/{id} marks it paid later: 200 with the expense; unknown or not yours → 404', async () => {
    const { u, p } = await setup();
    const { data: period } = await openPeriod(u, p.id, 2025, 3);
    const { data: created } = await (await accrue(u, body(p.id, period.id))).json();
    expect(created.is_paid).toBe(false);

    const res = await patch(u, created.id, { is_paid: true, payment_date: '2025-04-01' });
    expect(res.status).toBe(200);
    const { message, data } = await res.json();
    expect(message).toBeTypeOf('string');
    expect(data).toEqual({
      ...created,
      is_paid: true,
      payment_date: '2025-04-01',
      updated_at: data.updated_at,
    });

    await expectError(await patch(u, created.id, { is_paid: true }), 400, 'Bad Request');
    await expectError(await patch(u, created.id, { payment_date: '2025-04-01' }), 400, 'Bad Request');
    const other = await signUp(t);
    await expectError(await patch(other, created.id, { is_paid: false }), 404, 'Not Found');
    await expectError(await patch(u, 'no-such-expense', { is_paid: false }), 404, 'Not Found');
    await expectError(
      await request(t, 'PATCH', `/api/accrued-expenses/${created.id}`, { body: { is_paid: false } }),
      401,
      'Unauthorized',
    );
    const [row] = await t.handle.db.select().from(manualExpenses).where(eq(manualExpenses.id, created.id));
    expect(row).toMatchObject({ isPaid: true, paymentDate: '2025-04-01' });
  });
});

describe('GET /api/expenses', () => {
  it('refuses bad query parameters with 400', async () => {
    const u = await signUp(t);
    for (const q of ['?mes=13', '?mes=0', '?tipo=OTRO', '?limit=101', '?page=0', '?año=abc']) {
      await expectError(
        await request(t, 'GET', `/api/expenses${q}`, { headers: cookie(u.token) }),
        400,
        'Bad Request',
      );
    }
  });
});
