// Idempotency-Key (issue 13): a replay is exactly the first answer (status, body, quota headers) plus
// `Idempotent-Replayed: true`, and changes nothing; the same key with another body is a 409, on every
// route that honours a key (manual expenses, checkout). The stored answers live in the database: run
// this file on PostgreSQL too (scripts/with-postgres.sh).
import { manualExpenses } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout } from './billing-helpers';
import {
  bearer,
  caller,
  createProfile,
  expectError,
  request,
  signUp,
  signUpVerified,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function openMarch(u: TestUser) {
  const p = await createProfile(t, u, {
    nombre: 'Ana Gómez',
    rfc: 'GOMA800101AB1',
    tipo_persona: 'FISICA',
    regimenes_fiscales: ['612'],
  });
  const res = await request(t, 'POST', '/api/periods', {
    headers: bearer(u.token),
    body: { profile_id: p.id, año: 2025, mes: 3 },
  });
  return { profileId: p.id, periodId: (await res.json()).data.id as string };
}

const accrue = (u: TestUser, body: object, key?: string) =>
  request(t, 'POST', '/api/accrued-expenses', {
    headers: { ...bearer(u.token), ...(key ? { 'idempotency-key': key } : {}) },
    body,
  });

const expensesOf = async (u: TestUser) =>
  (await t.handle.db.select().from(manualExpenses).where(eq(manualExpenses.userId, u.id))).length;

describe('POST /accrued-expenses with an Idempotency-Key', () => {
  it('replays exactly the first answer, with Idempotent-Replayed and the first quota headers, spending nothing', async () => {
    const u = await signUp(t);
    const { profileId, periodId } = await openMarch(u);
    const body = {
      profile_id: profileId,
      period_id: periodId,
      concepto: 'Luz',
      subtotal: 500,
      fecha: '2025-03-03',
      type: 'manual',
    };
    const first = await accrue(u, body, 'retry-1');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect([first.headers.get('x-quota-limit'), first.headers.get('x-quota-remaining')]).toEqual([
      '50',
      '49',
    ]);
    const again = await accrue(u, body, 'retry-1');
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(await first.json());
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect([again.headers.get('x-quota-limit'), again.headers.get('x-quota-remaining')]).toEqual([
      '50',
      '49',
    ]);
    expect(await expensesOf(u)).toBe(1);
    // The replay spent no unit of the monthly quota.
    const next = await accrue(u, { ...body, concepto: 'Agua' });
    expect(next.headers.get('x-quota-remaining')).toBe('48');
  });

  it('answers the same key with a different body with 409 idempotency_key_reused, creating nothing', async () => {
    const u = await signUp(t);
    const { profileId, periodId } = await openMarch(u);
    const body = {
      profile_id: profileId,
      period_id: periodId,
      concepto: 'Luz',
      subtotal: 500,
      fecha: '2025-03-03',
      type: 'manual',
    };
    expect((await accrue(u, body, 'k')).status).toBe(201);
    const other = await accrue(u, { ...body, subtotal: 501 }, 'k');
    expect((await other.clone().json()).code).toBe('idempotency_key_reused');
    await expectError(other, 409, 'Conflict');
    expect(await expensesOf(u)).toBe(1);
  });

  it('holds through the tRPC caller too: the replay is marked in the response headers', async () => {
    const u = await signUp(t);
    const { profileId, periodId } = await openMarch(u);
    const input = {
      profileId,
      period_id: periodId,
      concepto: 'Gas',
      subtotal: 80,
      fecha: '2025-03-05',
      type: 'manual' as const,
    };
    const firstHeaders = new Headers();
    const first = await caller(t, u.token, 'bearer', {
      idempotencyKey: 'rpc-1',
      resHeaders: firstHeaders,
    }).expenses.createManual(input);
    const headers = new Headers();
    const again = await caller(t, u.token, 'bearer', {
      idempotencyKey: 'rpc-1',
      resHeaders: headers,
    }).expenses.createManual(input);
    expect(again).toEqual(first);
    expect(headers.get('idempotent-replayed')).toBe('true');
    expect(headers.get('x-quota-remaining')).toBe(firstHeaders.get('x-quota-remaining'));
    const err = await caller(t, u.token, 'bearer', { idempotencyKey: 'rpc-1' })
      .expenses.createManual({ ...input, subtotal: 81 })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CONFLICT' });
    expect(await expensesOf(u)).toBe(1);
  });
});

describe('POST /subscription/create-checkout with an Idempotency-Key', () => {
  it('replays the first session, marked Idempotent-Replayed', async () => {
    const u = await signUpVerified(t);
    const first = await checkout(t, u, { plan: 'BASIC' }, { 'idempotency-key': 'c-1' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await checkout(t, u, { plan: 'BASIC' }, { 'idempotency-key': 'c-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
  });

  it('answers the same key with another plan or billing with 409 idempotency_key_reused, not 500', async () => {
    const u = await signUpVerified(t);
    expect((await checkout(t, u, { plan: 'BASIC' }, { 'idempotency-key': 'c-2' })).status).toBe(201);
    for (const body of [{ plan: 'PRO' }, { plan: 'BASIC', billing: 'annual' }]) {
      const res = await checkout(t, u, body, { 'idempotency-key': 'c-2' });
      expect((await res.clone().json()).code).toBe('idempotency_key_reused');
      await expectError(res, 409, 'Conflict');
    }
  });
});
