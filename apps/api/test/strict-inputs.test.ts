// Inputs that do what the caller meant (issue 13): unknown query parameters are refused before any
// work, a profile is named by id or RFC under either spelling, manual expenses take `concepto`, and
// every error body carries a stable `code` (and `fields` for invalid input) on REST and tRPC alike.
import type { AppRouter } from '@folio/api';
import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  caller,
  createProfile,
  expectError,
  expectErrorBody,
  request,
  rfcFisica,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
  trpcClient,
  uploadXml,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (u: TestUser, path: string) => request(t, 'GET', path, { headers: bearer(u.token) });
const post = (u: TestUser, path: string, body: unknown) =>
  request(t, 'POST', path, { headers: bearer(u.token), body });

/** A user with two profiles (RFCs `rfcFisica(n)`, `rfcFisica(n + 1)`), a March 2025 period and one manual expense in each. */
async function twoProfiles(n: number) {
  const u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  const profiles = [];
  for (const rfc of [rfcFisica(n), rfcFisica(n + 1)]) {
    const p = await createProfile(t, u, {
      nombre: `Perfil ${rfc}`,
      rfc,
      tipo_persona: 'FISICA',
      regimenes_fiscales: ['612'],
    });
    const period = (await (await post(u, '/api/periods', { profile_id: p.id, año: 2025, mes: 3 })).json())
      .data;
    const created = await post(u, '/api/accrued-expenses', {
      profile_id: p.id,
      period_id: period.id,
      concepto: `Papelería ${rfc}`,
      subtotal: 100,
      fecha: '2025-03-10',
      type: 'manual',
    });
    expect(created.status).toBe(201);
    profiles.push({ ...p, periodId: period.id as string });
  }
  return { u, a: profiles[0]!, b: profiles[1]! };
}

async function unknownParameter(res: Response, name: string, suggestion: string) {
  const message = await expectError(res, 400, 'Bad Request');
  expect(message).toContain(`\`${name}\``);
  expect(message).toContain(`did you mean \`${suggestion}\``);
}

describe('unknown query parameters are refused, naming the closest known one', () => {
  it('a misspelled listing filter is a 400 unknown_parameter instead of a listing of every profile', async () => {
    const { u } = await twoProfiles(0);
    const res = await get(u, '/api/expenses?anio=2025');
    const body = await res.clone().json();
    expect(body.code).toBe('unknown_parameter');
    await unknownParameter(res, 'anio', 'año');
    await unknownParameter(await get(u, '/api/expenses?year=2025'), 'year', 'año');
    await unknownParameter(await get(u, '/api/invoices?q=papel'), 'q', 'search');
    await unknownParameter(await get(u, '/api/invoices?mess=3'), 'mess', 'mes');
    await unknownParameter(await get(u, '/api/periods?profile=x'), 'profile', 'profileId');
  });

  it('a misspelled SAT search parameter spends no search of the monthly quota', async () => {
    const u = await signUp(t);
    await unknownParameter(await get(u, '/api/sat/search?q=software'), 'q', 'query');
    const real = await get(u, '/api/sat/search?query=software');
    expect(real.status).toBe(200);
    expect(real.headers.get('x-quota-remaining')).toBe('9'); // FREE: 10, one spent
  });

  it('routes that read no query parameters refuse any (body routes and the upload)', async () => {
    const { u, a } = await twoProfiles(2);
    const periods = await post(u, `/api/periods?profileId=${a.id}`, { profile_id: a.id, año: 2025, mes: 4 });
    expect((await periods.clone().json()).code).toBe('unknown_parameter');
    await expectError(periods, 400, 'Bad Request');
    const upload = await t.app.request(`/api/profiles/${a.id}/cfdi?dry_run=1`, {
      method: 'POST',
      headers: { ...bearer(u.token), 'content-type': 'application/xml' },
      body: '<x/>',
    });
    expect((await upload.clone().json()).code).toBe('unknown_parameter');
    await expectError(upload, 400, 'Bad Request');
  });
});

describe('a profile is named by its id or its RFC, as profileId or profile_id, on every route', () => {
  it('filters listings by profile_id as by profileId, and by RFC', async () => {
    const { u, a } = await twoProfiles(4);
    for (const query of [
      `profile_id=${a.id}`,
      `profileId=${a.id}`,
      `profileId=${a.rfc}`,
      `profile_id=${a.rfc}`,
    ]) {
      const body = await (await get(u, `/api/expenses?${query}`)).json();
      expect({
        query,
        profiles: [...new Set(body.data.map((e: { profile_id: string }) => e.profile_id))],
      }).toEqual({
        query,
        profiles: [a.id],
      });
    }
    const invoices = await get(u, `/api/invoices?profile_id=${a.rfc}`);
    expect(invoices.status).toBe(200);
    const periods = await (await get(u, `/api/periods?profile_id=${a.rfc}`)).json();
    expect(periods.data.map((p: { id: string }) => p.id)).toEqual([a.periodId]);
  });

  it('refuses two spellings that name different profiles', async () => {
    const { u, a, b } = await twoProfiles(6);
    const res = await get(u, `/api/expenses?profileId=${a.id}&profile_id=${b.id}`);
    const body = await res.clone().json();
    await expectError(res, 400, 'Bad Request');
    expect(body.fields).toEqual([
      { path: 'profile_id', message: 'profile_id and profileId differ; send one' },
    ]);
  });

  it('takes an RFC in /profiles/{profileId} and in the upload route', async () => {
    const { u, a } = await twoProfiles(8);
    const one = await get(u, `/api/profiles/${a.rfc}`);
    expect(one.status).toBe(200);
    expect((await one.json()).data.id).toBe(a.id);
    const renamed = await request(t, 'PUT', `/api/profiles/${a.rfc.toLowerCase()}`, {
      headers: bearer(u.token),
      body: { nombre: 'Ana por RFC' },
    });
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).data).toMatchObject({ id: a.id, nombre: 'Ana por RFC' });
    const xml = invoiceXml({
      uuid: newUuid(),
      fecha: '2025-03-12T10:00:00',
      emisor: { rfc: a.rfc, nombre: 'Ana por RFC', regimen: '612' },
      receptor: { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' },
    });
    const upload = await uploadXml(t, u, a.rfc, xml);
    expect(upload.status).toBe(201);
  });

  it('POST /periods and /accrued-expenses take profileId as well as profile_id (REST and tRPC)', async () => {
    const { u, a } = await twoProfiles(10);
    const opened = await post(u, '/api/periods', { profileId: a.rfc, año: 2025, mes: 5 });
    expect(opened.status).toBe(201);
    const period = (await opened.json()).data;
    expect(period.profile_id).toBe(a.id);
    const viaTrpc = await caller(t, u.token).periods.open({ profileId: a.rfc, año: 2025, mes: 6 });
    expect(viaTrpc.data.profile_id).toBe(a.id);
    const expense = await post(u, '/api/accrued-expenses', {
      profileId: a.id,
      period_id: period.id,
      concepto: 'Luz',
      subtotal: 50,
      fecha: '2025-05-02',
      type: 'manual',
    });
    expect(expense.status).toBe(201);
  });
});

describe('manual expenses take concepto (concept stays an alias)', () => {
  it('records concepto and concept alike, and names concepto when neither is given', async () => {
    const { u, a } = await twoProfiles(12);
    const base = {
      profile_id: a.id,
      period_id: a.periodId,
      subtotal: 10,
      fecha: '2025-03-11',
      type: 'manual',
    };
    const withConcepto = await post(u, '/api/accrued-expenses', { ...base, concepto: 'Renta' });
    expect(withConcepto.status).toBe(201);
    expect((await withConcepto.json()).data.concepto).toBe('Renta');
    const withConcept = await post(u, '/api/accrued-expenses', { ...base, concept: 'Agua' });
    expect((await withConcept.json()).data.concepto).toBe('Agua');
    const neither = await post(u, '/api/accrued-expenses', base);
    const body = await neither.clone().json();
    await expectError(neither, 400, 'Bad Request');
    expect(body.fields).toEqual([{ path: 'concepto', message: 'concepto (or concept) is required' }]);
    const viaTrpc = await caller(t, u.token).expenses.createManual({
      ...base,
      type: 'manual',
      concepto: 'Gas',
    });
    expect(viaTrpc.data.concepto).toBe('Gas');
  });
});

describe('error bodies carry a stable code, and fields for invalid input', () => {
  it('a validation failure lists each field with its message (and keeps the one-line message)', async () => {
    const u = await signUp(t);
    const res = await get(u, '/api/invoices?mes=13&limit=0');
    const body = await res.json();
    expect(res.status).toBe(400);
    expectErrorBody(body);
    expect(body).toMatchObject({
      error: 'Bad Request',
      code: 'validation_failed',
      fields: [
        { path: 'mes', message: 'mes must be 1-12' },
        { path: 'limit', message: expect.any(String) },
      ],
    });
    expect(body.message).toMatch(/^mes: mes must be 1-12; limit: /);
  });

  it('names the rule: rfc_invalid, quota_exceeded, not_found, route_not_found, unauthorized, email_unverified', async () => {
    const u = await signUp(t);
    const badRfc = await post(u, '/api/profiles', {
      nombre: 'X',
      rfc: 'XAXX010101000',
      tipo_persona: 'FISICA',
      regimenes_fiscales: ['612'],
    });
    expect((await badRfc.json()).code).toBe('rfc_invalid');
    for (let i = 0; i < 10; i++) await get(u, '/api/sat/search?query=agua');
    const quota = await get(u, '/api/sat/search?query=agua');
    expect(quota.status).toBe(429);
    expect((await quota.json()).code).toBe('quota_exceeded');
    expect((await (await get(u, '/api/profiles/nope')).json()).code).toBe('not_found');
    expect((await (await get(u, '/api/nowhere')).json()).code).toBe('route_not_found');
    const anonymous = await request(t, 'GET', '/api/profiles');
    expect((await anonymous.json()).code).toBe('unauthorized');
    const unverified = await post(u, '/api/subscription/create-checkout', { plan: 'BASIC' });
    expect((await unverified.json()).code).toBe('email_unverified');
  });

  it('tRPC reports the same code and fields in the error data', async () => {
    const u = await signUp(t);
    const err = await trpcClient(t, u.token)
      .invoices.list.query({ mes: 13 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    const data = (err as TRPCClientError<AppRouter>).data as Record<string, unknown>;
    expect(data).toMatchObject({
      code: 'BAD_REQUEST',
      errorCode: 'validation_failed',
      fields: [{ path: 'mes', message: 'mes must be 1-12' }],
    });
    const rfc = await trpcClient(t, u.token)
      .profiles.create.mutate({
        nombre: 'X',
        rfc: 'XAXX010101000',
        tipo_persona: 'FISICA',
        regimenes_fiscales: ['612'],
      })
      .catch((e: unknown) => e);
    expect(((rfc as TRPCClientError<AppRouter>).data as Record<string, unknown>).errorCode).toBe(
      'rfc_invalid',
    );
  });
});
