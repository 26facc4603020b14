import { randomUUID } from 'node:crypto';
import { appRouter, restRoutes } from '@folio/api';
import { invoiceXml, newUuid, type Party, paymentXml } from '@folio/cfdi/testing';
import { satAlerts, satSyncJobs, webhookDeliveries } from '@folio/db/schema';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  caller,
  createProfile,
  expectErrorBody,
  request,
  setPlan,
  signUp,
  signUpVerified,
  startTestApp,
  type TestApp,
  type TestUser,
  uploadXml,
} from './harness';

/**
 * Every REST route and every tRPC procedure, called as nobody, as the owner of the objects it names,
 * and as another user. The route list comes from the router, so a new route without an entry in
 * CALLS fails the first test instead of going unchecked.
 */

let t: TestApp;
let owner: TestUser;
let intruder: TestUser;
const o: Record<string, string> = {};

const OWNER: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial Dueña', regimen: '601' };
const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés', regimen: '612' };

/** A call of one route against the owner's objects; `fresh` builds what a destructive call consumes. */
interface Call {
  path?: (o: Record<string, string>) => string;
  query?: (o: Record<string, string>) => string;
  body?: (o: Record<string, string>) => unknown;
  /** Routes that take no owned object: the intruder succeeds too, but must see none of the owner's data. */
  unowned?: boolean;
  /** Create a fresh object for this call (deletes and state changes) and return its id under this key. */
  fresh?: () => Promise<Record<string, string>>;
  /** Public routes are exempt from the 401 check. */
  public?: boolean;
  skipOwner?: string;
  /** Revokes the caller's session: called by a throwaway user so the matrix keeps its sessions. */
  endsSession?: boolean;
}

const CALLS: Record<string, Call> = {
  'POST /auth/register': { public: true, skipOwner: 'creates an account; covered in accounts.test.ts' },
  'POST /auth/login': { public: true, skipOwner: 'covered in accounts.test.ts' },
  'POST /auth/logout': {
    public: true,
    skipOwner: 'ends a session; covered in accounts.test.ts',
    endsSession: true,
  },
  'GET /auth/me': { unowned: true },
  'POST /auth/verify-email': { public: true, skipOwner: 'needs a mailed token; covered in accounts.test.ts' },
  'GET /auth/verify-email': { public: true, skipOwner: 'needs a mailed token; covered in accounts.test.ts' },
  'POST /auth/resend-verification': { unowned: true },
  'POST /auth/refresh': { unowned: true },
  'POST /auth/forgot-password': { public: true, body: () => ({ email: 'someone@example.com' }) },
  'POST /auth/reset-password': {
    public: true,
    skipOwner: 'needs a mailed token; covered in passwords.test.ts',
  },
  'POST /auth/change-password': {
    unowned: true,
    skipOwner: "would change the owner's password; covered in passwords.test.ts",
  },
  'GET /profiles': { unowned: true },
  'POST /profiles': {
    unowned: true,
    body: () => ({
      nombre: 'Otro',
      rfc: newProfileRfc(),
      tipo_persona: 'MORAL',
    }),
  },
  'GET /profiles/{profileId}': { path: (x) => `/api/profiles/${x.profileId}` },
  'PUT /profiles/{profileId}': {
    path: (x) => `/api/profiles/${x.profileId}`,
    body: () => ({ nombre: 'Renombrada' }),
  },
  'DELETE /profiles/{profileId}': {
    path: (x) => `/api/profiles/${x.spareProfileId}`,
    fresh: async () => ({
      spareProfileId: (
        await createProfile(t, owner, { nombre: 'Borrable', rfc: spareRfc(), tipo_persona: 'MORAL' })
      ).id,
    }),
  },
  'PUT /profiles/{profileId}/iva-proporcion-5b': {
    path: (x) => `/api/profiles/${x.profileId}/iva-proporcion-5b`,
    body: () => ({ año: 2025, proporcion: 80 }),
  },
  'PUT /profiles/{profileId}/pagos-provisionales/{anio}/{mes}': {
    path: (x) => `/api/profiles/${x.profileId}/pagos-provisionales/2025/5`,
    body: () => ({ isr_pagado: 100 }),
  },
  'POST /profiles/{profileId}/cfdi': {
    path: (x) => `/api/profiles/${x.profileId}/cfdi`,
    body: () =>
      invoiceXml({ uuid: newUuid(), emisor: OWNER, receptor: CLIENT, fecha: '2025-05-05T10:00:00' }),
  },
  'POST /profiles/{profileId}/cfdi/xml': {
    path: (x) => `/api/profiles/${x.profileId}/cfdi/xml`,
    body: () =>
      invoiceXml({ uuid: newUuid(), emisor: OWNER, receptor: CLIENT, fecha: '2025-05-06T10:00:00' }),
  },
  'GET /invoices': { query: (x) => `?profileId=${x.profileId}` },
  'GET /invoices/{id}': { path: (x) => `/api/invoices/${x.invoiceId}` },
  'PATCH /invoices/{id}': {
    path: (x) => `/api/invoices/${x.invoiceId}`,
    body: () => ({ estatus_sat: 'vigente' }),
  },
  'PATCH /expenses/{id}': {
    path: (x) => `/api/expenses/${x.expenseCfdiId}`,
    body: () => ({ estatus_sat: 'vigente' }),
  },
  'POST /invoices/{id}/sat-status': {
    path: (x) => `/api/invoices/${x.invoiceId}/sat-status`,
    skipOwner:
      "asks SAT's status service, which the matrix does not reach; covered in sat-sync-routes.test.ts",
  },
  'POST /expenses/{id}/sat-status': {
    path: (x) => `/api/expenses/${x.expenseCfdiId}/sat-status`,
    skipOwner:
      "asks SAT's status service, which the matrix does not reach; covered in sat-sync-routes.test.ts",
  },
  'POST /profiles/{profileId}/sat-metadata': {
    path: (x) => `/api/profiles/${x.profileId}/sat-metadata`,
    body: (x) => `Uuid~Estatus~FechaCancelacion\r\n${x.invoiceUuid}~1~\r\n`,
  },
  'GET /profiles/{profileId}/sat-metadata/missing': {
    path: (x) => `/api/profiles/${x.profileId}/sat-metadata/missing`,
  },
  'GET /invoices/{id}/xml': { path: (x) => `/api/invoices/${x.invoiceId}/xml` },
  'GET /invoices/{id}/pdf': { path: (x) => `/api/invoices/${x.invoiceId}/pdf` },
  'GET /invoices/export': { query: (x) => `?profileId=${x.profileId}` },
  'POST /invoices/{id}/payments': {
    path: (x) => `/api/invoices/${x.invoiceId}/payments`,
    body: () => ({ fechaPago: '2025-05-06', formaPago: '03', monedaPago: 'MXN', monto: 1 }),
  },
  'PUT /invoices/{id}/acto-5c': {
    path: (x) => `/api/invoices/${x.invoiceId}/acto-5c`,
    body: () => ({ acto_5c: false }),
  },
  'PUT /expenses/{id}/uso-iva': {
    path: (x) => `/api/expenses/${x.expenseCfdiId}/uso-iva`,
    body: () => ({ uso_iva: null }),
  },
  'GET /expenses': { query: (x) => `?profileId=${x.profileId}` },
  'GET /expenses/export': { query: (x) => `?profileId=${x.profileId}` },
  'POST /accrued-expenses': {
    body: (x) => ({
      profile_id: x.profileId,
      period_id: x.periodId,
      concept: 'Luz',
      subtotal: 10,
      fecha: '2025-05-02',
      type: 'manual',
    }),
  },
  'PATCH /accrued-expenses/{id}': {
    path: (x) => `/api/accrued-expenses/${x.expenseId}`,
    body: () => ({ is_paid: true, payment_date: '2025-05-20' }),
  },
  'GET /periods': { query: (x) => `?profileId=${x.profileId}` },
  'POST /periods': { body: (x) => ({ profile_id: x.profileId, año: 2025, mes: 6 }) },
  'POST /periods/{id}/close': {
    path: (x) => `/api/periods/${x.spareClosePeriodId}/close`,
    fresh: freshPeriod('spareClosePeriodId', 7),
  },
  'POST /periods/{id}/reopen': {
    path: (x) => `/api/periods/${x.spareReopenPeriodId}/reopen`,
    fresh: freshPeriod('spareReopenPeriodId', 8),
  },
  'GET /reports/monthly': { query: (x) => `?profileId=${x.profileId}&año=2025&mes=5` },
  'GET /reports/annual': { query: (x) => `?profileId=${x.profileId}&año=2025` },
  'GET /reports/diot': { query: (x) => `?profileId=${x.profileId}&año=2025&mes=5` },
  'PUT /profiles/{profileId}/diot/proveedores/{rfc}': {
    path: (x) => `/api/profiles/${x.profileId}/diot/proveedores/EKU9003173C9`,
    body: () => ({ tipo_operacion: '85' }),
  },
  'GET /sat/search': { unowned: true },
  'GET /sat/ai-search': { unowned: true, query: () => '?query=renta%20de%20oficina' },
  'GET /sat/regimenes-fiscales': { unowned: true },
  'GET /sat/{id}': { unowned: true, path: () => '/api/sat/43211500' },
  // The caller's own history and favorites (a code is a catalog entry, not an object someone owns).
  'GET /sat/history': { unowned: true },
  'DELETE /sat/history': { unowned: true },
  'GET /sat/favorites': { unowned: true },
  'PUT /sat/favorites/{id}': { unowned: true, path: () => '/api/sat/favorites/43211500', body: () => ({}) },
  'DELETE /sat/favorites/{id}': {
    unowned: true,
    path: () => '/api/sat/favorites/43211508',
    fresh: async () => {
      await request(t, 'PUT', '/api/sat/favorites/43211508', { headers: bearer(owner.token), body: {} });
      return {};
    },
  },
  'GET /sat/alerts': { unowned: true },
  'POST /sat/alerts/{id}/read': { path: (x) => `/api/sat/alerts/${x.alertId}/read` },
  'GET /subscription/plans': { unowned: true },
  'GET /subscription': { unowned: true },
  'POST /subscription/create-checkout': { unowned: true, body: () => ({ plan: 'BASIC' }) },
  'POST /subscription/create-portal-session': {
    unowned: true,
    skipOwner: 'the owner is on PRO by setPlan, with no provider customer (404); covered in billing.test.ts',
  },
  'POST /api-keys': { unowned: true, body: () => ({ name: 'matriz' }) },
  'GET /api-keys': { unowned: true },
  'DELETE /api-keys/{id}': {
    path: (x) => `/api/api-keys/${x.spareKeyId}`,
    fresh: async () => ({ spareKeyId: (await newKey('write')).id }),
  },
  // The owner's e.firma: GET and DELETE find one the PUT stored (the simulator issues it for OWNER.rfc).
  'PUT /profiles/{profileId}/efirma': {
    path: (x) => `/api/profiles/${x.profileId}/efirma`,
    body: () => efirmaForm(),
  },
  'GET /profiles/{profileId}/efirma': {
    path: (x) => `/api/profiles/${x.profileId}/efirma`,
    fresh: storeOwnersEfirma,
  },
  'DELETE /profiles/{profileId}/efirma': {
    path: (x) => `/api/profiles/${x.profileId}/efirma`,
    fresh: storeOwnersEfirma,
  },
  // SAT sync jobs: the matrix runs no job queue, so the owner's job is a row written directly.
  'POST /profiles/{profileId}/sat-sync': {
    path: (x) => `/api/profiles/${x.profileId}/sat-sync`,
    body: () => ({ desde: '2026-01-01', hasta: '2026-01-31', tipo: 'ambos', contenido: 'ambos' }),
    skipOwner: 'enqueues on the job queue the matrix does not run; covered in sat-sync-routes.test.ts',
  },
  'GET /profiles/{profileId}/sat-sync': { path: (x) => `/api/profiles/${x.profileId}/sat-sync` },
  'GET /sat-sync/{id}': { path: (x) => `/api/sat-sync/${x.syncJobId}` },
  'POST /support/requests': {
    unowned: true,
    body: () => ({ asunto: 'Matriz', mensaje: 'Una pregunta' }),
  },
  'GET /support/requests': { unowned: true },
  'POST /webhook-endpoints': {
    unowned: true,
    body: () => ({ url: HOOK_URL, eventos: ['cfdi.imported'] }),
  },
  'GET /webhook-endpoints': { unowned: true },
  'GET /webhook-endpoints/{id}': { path: (x) => `/api/webhook-endpoints/${x.endpointId}` },
  'PATCH /webhook-endpoints/{id}': {
    path: (x) => `/api/webhook-endpoints/${x.endpointId}`,
    body: () => ({ descripcion: 'matriz' }),
  },
  'DELETE /webhook-endpoints/{id}': {
    path: (x) => `/api/webhook-endpoints/${x.spareEndpointId}`,
    fresh: async () => ({ spareEndpointId: await newEndpoint() }),
  },
  'POST /webhook-endpoints/{id}/rotate-secret': {
    path: (x) => `/api/webhook-endpoints/${x.endpointId}/rotate-secret`,
    body: () => ({ grace_hours: 1 }),
  },
  'POST /webhook-endpoints/{id}/test': { path: (x) => `/api/webhook-endpoints/${x.endpointId}/test` },
  'GET /webhook-endpoints/{id}/deliveries': {
    path: (x) => `/api/webhook-endpoints/${x.endpointId}/deliveries`,
  },
  'POST /webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver': {
    path: (x) => `/api/webhook-endpoints/${x.endpointId}/deliveries/${x.deliveryId}/redeliver`,
    fresh: async () => ({ deliveryId: await finishedDelivery() }),
  },
  'POST /webhooks/stripe': {
    public: true,
    skipOwner: 'signed by the payment provider, not a user; covered in billing-webhook.test.ts',
  },
};

/** The simulator's e.firma for the owner's RFC, issued once. */
let efirma: { cer: string; key: string; password: string } | undefined;
function efirmaForm(): FormData {
  const form = new FormData();
  form.append('cer', new File([Buffer.from(efirma!.cer, 'base64')], 'a.cer'));
  form.append('key', new File([Buffer.from(efirma!.key, 'base64')], 'a.key'));
  form.append('password', efirma!.password);
  form.append('consentimiento', 'true');
  return form;
}

async function storeOwnersEfirma(): Promise<Record<string, string>> {
  const res = await t.app.request(`/api/profiles/${o.profileId}/efirma`, {
    method: 'PUT',
    headers: bearer(owner.token),
    body: efirmaForm(),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return {};
}

async function newKey(scope: 'read' | 'write'): Promise<{ id: string; key: string }> {
  const res = await request(t, 'POST', '/api/api-keys', {
    headers: bearer(owner.token),
    body: { name: `matriz ${scope}`, scope },
  });
  return (await res.json()).data;
}

/** Nothing listens there: the matrix runs no job queue, so no delivery is attempted. */
const HOOK_URL = 'http://127.0.0.1:9/hooks';

async function newEndpoint(): Promise<string> {
  const res = await request(t, 'POST', '/api/webhook-endpoints', {
    headers: bearer(owner.token),
    body: { url: HOOK_URL, eventos: ['cfdi.imported'] },
  });
  return (await res.json()).data.id;
}

/** A delivery of the owner's endpoint that has finished (only those may be redelivered). */
async function finishedDelivery(): Promise<string> {
  await request(t, 'POST', `/api/webhook-endpoints/${o.endpointId}/test`, { headers: bearer(owner.token) });
  const [d] = await t.handle.db
    .update(webhookDeliveries)
    .set({ status: 'failed' })
    .where(and(eq(webhookDeliveries.endpointId, o.endpointId!), eq(webhookDeliveries.status, 'pending')))
    .returning({ id: webhookDeliveries.id });
  return d!.id;
}

let spare = 0;
const spareRfc = () => `BOR9707${String(10 + ++spare).padStart(2, '0')}AA1`;
// Each principal that may create a profile gets an RFC no earlier call took (a real date each time).
let made = 0;
const newProfileRfc = () => `AAA1001${String(10 + ++made).padStart(2, '0')}XX1`;

function freshPeriod(key: string, mes: number) {
  return async () => {
    const res = await request(t, 'POST', '/api/periods', {
      headers: bearer(owner.token),
      body: { profile_id: o.profileId, año: 2025, mes },
    });
    return { [key]: (await res.json()).data.id as string };
  };
}

const routes = restRoutes();
const routeKeys = routes.map((r) => `${r.method} ${r.path}`);
const XML_BODY = new Set(['POST /profiles/{profileId}/cfdi', 'POST /profiles/{profileId}/cfdi/xml']);
const TEXT_BODY = new Set(['POST /profiles/{profileId}/sat-metadata']);
/** Routes that need the user's own session (meta.sessionOnly): an API key gets 403. */
const sessionOnly = new Set(routes.filter((r) => r.sessionOnly).map((r) => `${r.method} ${r.path}`));

beforeAll(async () => {
  t = await startTestApp();
  owner = await signUpVerified(t); // a verified email, so the owner can create API keys
  intruder = await signUp(t);
  await setPlan(t, owner.id, 'PRO');
  const profile = await createProfile(t, owner, {
    nombre: OWNER.nombre,
    rfc: OWNER.rfc,
    tipo_persona: 'MORAL',
    regimenes_fiscales: ['601'],
  });
  await createProfile(t, intruder, { nombre: 'Intrusa', rfc: 'INT970701AA1', tipo_persona: 'MORAL' });
  o.profileId = profile.id;
  const uuid = newUuid();
  const inv = await uploadXml(
    t,
    owner,
    profile.id,
    invoiceXml({ uuid, emisor: OWNER, receptor: CLIENT, fecha: '2025-05-01T10:00:00', metodoPago: 'PPD' }),
  );
  o.invoiceId = (await inv.json()).data.files[0].id;
  o.invoiceUuid = uuid;
  const received = await uploadXml(
    t,
    owner,
    profile.id,
    invoiceXml({ uuid: newUuid(), emisor: CLIENT, receptor: OWNER, fecha: '2025-05-02T10:00:00' }),
  );
  o.expenseCfdiId = (await received.json()).data.files[0].id;
  await uploadXml(
    t,
    owner,
    profile.id,
    paymentXml({
      uuid: newUuid(),
      emisor: OWNER,
      receptor: CLIENT,
      fecha: '2025-05-03T10:00:00',
      pagos: [
        {
          fechaPago: '2025-05-03T10:00:00',
          doctos: [{ uuid, numParcialidad: 1, impSaldoAnt: 1160, impPagado: 100 }],
        },
      ],
    }),
  );
  const period = await request(t, 'POST', '/api/periods', {
    headers: bearer(owner.token),
    body: { profile_id: profile.id, año: 2025, mes: 5 },
  });
  o.periodId = (await period.json()).data.id;
  const expense = await request(t, 'POST', '/api/accrued-expenses', {
    headers: bearer(owner.token),
    body: {
      profile_id: profile.id,
      period_id: o.periodId,
      concept: 'Agua',
      subtotal: 5,
      fecha: '2025-05-03',
      type: 'manual',
    },
  });
  o.expenseId = (await expense.json()).data.id;
  o.alertId = randomUUID();
  await t.handle.db.insert(satAlerts).values({
    id: o.alertId,
    userId: owner.id,
    clave: '43211500',
    cambio: 'iva',
    antes: 'Opcional',
    despues: 'Sí',
  });
  o.syncJobId = randomUUID();
  await t.handle.db.insert(satSyncJobs).values({
    id: o.syncJobId,
    profileId: o.profileId,
    userId: owner.id,
    desde: '2026-01-01',
    hasta: '2026-01-31',
    tipo: 'ambos',
    contenido: 'ambos',
  });
  const issued = await request(t, 'POST', '/__dev/sat/efirma', { body: { rfc: OWNER.rfc } });
  efirma = (await issued.json()).data;
  o.endpointId = await newEndpoint();
  keys.write = (await newKey('write')).key;
  keys.read = (await newKey('read')).key;
}, 60_000);
/** The owner's API keys: a key principal is the owner, with its scope, outside session-only routes. */
const keys = { write: '', read: '' };
afterAll(() => t.close());

/** Strings that would betray the owner's data in someone else's answer. */
const secrets = () =>
  [
    o.profileId,
    o.invoiceId,
    o.invoiceUuid,
    o.periodId,
    o.expenseId,
    o.alertId,
    o.endpointId,
    o.syncJobId,
    OWNER.rfc,
    OWNER.nombre,
    owner.email,
  ].filter(Boolean) as string[];

function send(key: string, call: Call, ids: Record<string, string>, headers: Record<string, string>) {
  const [method, template] = key.split(' ') as [string, string];
  const path = (call.path?.(ids) ?? `/api${template}`) + (call.query?.(ids) ?? '');
  const body = call.body?.(ids);
  if (body instanceof FormData) return t.app.request(path, { method, headers, body });
  if (XML_BODY.has(key) || TEXT_BODY.has(key)) {
    return t.app.request(path, {
      method,
      headers: { ...headers, 'content-type': XML_BODY.has(key) ? 'application/xml' : 'text/plain' },
      body: body as string,
    });
  }
  return request(t, method, path, { headers, body });
}

describe('authorization matrix over every REST route', () => {
  it('has an entry for every route of the router (a new route cannot go unchecked)', () => {
    expect(routeKeys.filter((k) => !CALLS[k])).toEqual([]);
    expect(Object.keys(CALLS).filter((k) => !routeKeys.includes(k))).toEqual([]);
  });

  it.each(routeKeys.filter((k) => !CALLS[k]?.public))('%s: anonymous → 401', async (key) => {
    const res = await send(key, CALLS[key]!, o, {});
    expect(res.status).toBe(401);
    expectErrorBody(await res.json());
  });

  it.each(routeKeys)(
    '%s: another user → 403/404 on the owner’s objects, never a byte of them',
    async (key) => {
      const call = CALLS[key]!;
      const ids = { ...o, ...(call.fresh ? await call.fresh() : {}) };
      const who = call.endsSession ? await signUp(t) : intruder;
      const res = await send(key, call, ids, bearer(who.token));
      const text = await res.text();
      if (!call.unowned && !call.public) expect([403, 404]).toContain(res.status);
      for (const s of secrets()) expect(text).not.toContain(s);
    },
  );

  it.each(routeKeys.filter((k) => !CALLS[k]?.skipOwner))('%s: the owner → success', async (key) => {
    const call = CALLS[key]!;
    const ids = { ...o, ...(call.fresh ? await call.fresh() : {}) };
    const res = await send(key, call, ids, bearer(owner.token));
    expect(res.status, await res.clone().text()).toBeLessThan(300);
  });
});

describe('the owner’s API keys over every REST route', () => {
  it('session-only routes are exactly the ones plan-features §1 names', () => {
    expect([...sessionOnly].sort()).toEqual(
      [
        'DELETE /api-keys/{id}',
        'DELETE /profiles/{profileId}',
        // The stored e.firma: an API key may not read, replace or delete it (integrations.md §1).
        'PUT /profiles/{profileId}/efirma',
        'GET /profiles/{profileId}/efirma',
        'DELETE /profiles/{profileId}/efirma',
        // A sync job opens the stored e.firma; reading jobs is open to keys.
        'POST /profiles/{profileId}/sat-sync',
        'GET /api-keys',
        'POST /api-keys',
        'POST /auth/logout',
        // A key has no session to extend, and must not be able to take the account over.
        'POST /auth/refresh',
        'POST /auth/change-password',
        'POST /subscription/create-checkout',
        'POST /subscription/create-portal-session',
      ].sort(),
    );
  });

  it.each(routeKeys.filter((k) => sessionOnly.has(k) || (!CALLS[k]?.skipOwner && !CALLS[k]?.public)))(
    '%s: a write key → as the owner, or 403 where a session is needed',
    async (key) => {
      const call = CALLS[key]!;
      const ids = { ...o, ...(call.fresh ? await call.fresh() : {}) };
      const res = await send(key, call, ids, bearer(keys.write));
      if (sessionOnly.has(key)) expect(res.status).toBe(403);
      else expect(res.status, await res.clone().text()).toBeLessThan(300);
    },
  );

  it.each(routeKeys.filter((k) => !CALLS[k]?.public || sessionOnly.has(k)))(
    '%s: a read key → GET as the owner, any write 403',
    async (key) => {
      const call = CALLS[key]!;
      const ids = { ...o, ...(call.fresh ? await call.fresh() : {}) };
      const res = await send(key, call, ids, bearer(keys.read));
      if (key.startsWith('GET ') && !sessionOnly.has(key)) expect(res.status).toBeLessThan(300);
      else expect(res.status).toBe(403);
    },
  );
});

describe('authorization over every tRPC procedure', () => {
  const procedures = Object.keys(appRouter._def.procedures);
  const PUBLIC = new Set([
    'auth.register',
    'auth.login',
    'auth.logout',
    'auth.verifyEmail',
    'auth.verifyEmailLink',
    'auth.forgotPassword',
    'auth.resetPassword',
  ]);
  const invoke = (who: ReturnType<typeof caller>, path: string, input: unknown) =>
    path.split('.').reduce<any>((node, k) => node[k], who)(input);
  const OWNED_INPUT: Record<string, () => unknown> = {
    'profiles.get': () => ({ profileId: o.profileId }),
    'profiles.update': () => ({ profileId: o.profileId, nombre: 'x' }),
    'profiles.delete': () => ({ profileId: o.profileId }),
    'profiles.setIvaProporcion5b': () => ({ profileId: o.profileId, año: 2025, proporcion: 80 }),
    'profiles.setPagoProvisional': () => ({ profileId: o.profileId, anio: 2025, mes: 5, isr_pagado: 1 }),
    'invoices.get': () => ({ id: o.invoiceId }),
    'invoices.addPayment': () => ({
      id: o.invoiceId,
      fechaPago: '2025-05-06',
      formaPago: '03',
      monedaPago: 'MXN',
      monto: 1,
    }),
    'invoices.setActo5c': () => ({ id: o.invoiceId, acto_5c: false }),
    'expenses.setUsoIva': () => ({ id: o.expenseCfdiId, uso_iva: null }),
    'invoices.list': () => ({ profileId: o.profileId, page: 1, limit: 50 }),
    'expenses.list': () => ({ profileId: o.profileId, page: 1, limit: 20 }),
    'expenses.createManual': () => ({
      profile_id: o.profileId,
      period_id: o.periodId,
      concept: 'x',
      subtotal: 1,
      fecha: '2025-05-02',
      type: 'manual',
    }),
    'expenses.updatePayment': () => ({ id: o.expenseId, is_paid: true, payment_date: '2025-05-20' }),
    'periods.list': () => ({ profileId: o.profileId }),
    'periods.open': () => ({ profile_id: o.profileId, año: 2025, mes: 9 }),
    'periods.close': () => ({ id: o.periodId }),
    'periods.reopen': () => ({ id: o.periodId }),
    'sat.alerts.read': () => ({ id: o.alertId }),
    'cfdi.import': () => ({ profileId: o.profileId, files: [{ name: 'a.xml', content: '<x/>' }] }),
    'invoices.update': () => ({ id: o.invoiceId, estatus_sat: 'vigente' }),
    'expenses.update': () => ({ id: o.expenseCfdiId, estatus_sat: 'vigente' }),
    'satMetadata.import': () => ({
      profileId: o.profileId,
      files: [{ name: 'm.txt', content: `Uuid~Estatus~FechaCancelacion\r\n${o.invoiceUuid}~1~\r\n` }],
    }),
    'satMetadata.missing': () => ({ profileId: o.profileId }),
    'efirma.store': () => ({
      profileId: o.profileId,
      cer: efirma!.cer,
      key: efirma!.key,
      password: efirma!.password,
      consentimiento: true,
    }),
    'efirma.get': () => ({ profileId: o.profileId }),
    'efirma.delete': () => ({ profileId: o.profileId }),
    'satSync.create': () => ({
      profileId: o.profileId,
      desde: '2026-01-01',
      hasta: '2026-01-31',
      tipo: 'ambos',
      contenido: 'ambos',
    }),
    'satSync.get': () => ({ id: o.syncJobId }),
    'invoices.checkSatStatus': () => ({ id: o.invoiceId }),
    'expenses.checkSatStatus': () => ({ id: o.expenseCfdiId }),
    'satSync.list': () => ({ profileId: o.profileId }),
    'webhookEndpoints.get': () => ({ id: o.endpointId }),
    'webhookEndpoints.update': () => ({ id: o.endpointId, activo: false }),
    'webhookEndpoints.delete': () => ({ id: o.endpointId }),
    'webhookEndpoints.rotateSecret': () => ({ id: o.endpointId }),
    'webhookEndpoints.test': () => ({ id: o.endpointId }),
    'webhookEndpoints.deliveries': () => ({ id: o.endpointId }),
    'webhookEndpoints.redeliver': () => ({ id: o.endpointId, deliveryId: 'x' }),
  };

  it.each(procedures.filter((p) => !PUBLIC.has(p)))('%s: no token → UNAUTHORIZED', async (path) => {
    await expect(invoke(caller(t), path, OWNED_INPUT[path]?.() ?? {})).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  const procMeta = (path: string) => (appRouter._def.procedures as Record<string, any>)[path]._def;

  it.each(procedures.filter((p) => procMeta(p).meta?.sessionOnly))(
    '%s: the owner’s API key → FORBIDDEN (needs a session)',
    async (path) => {
      await expect(invoke(caller(t, keys.write), path, OWNED_INPUT[path]?.() ?? {})).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
    },
  );

  it.each(procedures.filter((p) => !PUBLIC.has(p) && procMeta(p).type !== 'query'))(
    '%s: the owner’s read key → FORBIDDEN (mutation)',
    async (path) => {
      await expect(invoke(caller(t, keys.read), path, OWNED_INPUT[path]?.() ?? {})).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
    },
  );

  it.each(Object.keys(OWNED_INPUT))(
    '%s: another user on the owner’s objects → FORBIDDEN or NOT_FOUND',
    async (path) => {
      const err = await invoke(caller(t, intruder.token), path, OWNED_INPUT[path]!()).catch(
        (e: { code: string }) => e,
      );
      expect(['FORBIDDEN', 'NOT_FOUND']).toContain(err.code);
    },
  );
});

describe('mass assignment: fields a caller must not set are ignored', () => {
  it('profile writes ignore id, user_id, frozen*, timestamps', async () => {
    const res = await request(t, 'PUT', `/api/profiles/${o.profileId}`, {
      headers: bearer(owner.token),
      body: {
        nombre: 'Dueña',
        id: 'x',
        user_id: intruder.id,
        frozen: true,
        frozen_reason: 'PLAN_LIMIT',
        created_at: '2000-01-01T00:00:00Z',
      },
    });
    expect((await res.json()).data).toMatchObject({ id: o.profileId, user_id: owner.id, frozen: false });
  });

  it('a manual expense ignores tipo_origen, total, iva and ids from the body', async () => {
    const res = await request(t, 'POST', '/api/accrued-expenses', {
      headers: bearer(owner.token),
      body: {
        profile_id: o.profileId,
        period_id: o.periodId,
        concept: 'x',
        subtotal: 100,
        iva_amount: 16,
        fecha: '2025-05-02',
        type: 'manual',
        tipo_origen: 'XML',
        total: 1,
        iva: 99,
        id: 'mine',
        user_id: intruder.id,
      },
    });
    expect((await res.json()).data).toMatchObject({
      tipo_origen: 'MANUAL',
      total: 116,
      iva: 16,
      profile_id: o.profileId,
    });
  });

  it('a manual payment ignores an id and a profile in the body', async () => {
    const res = await request(t, 'POST', `/api/invoices/${o.invoiceId}/payments`, {
      headers: bearer(owner.token),
      body: {
        fechaPago: '2025-05-06',
        formaPago: '03',
        monedaPago: 'MXN',
        monto: 1,
        profile_id: 'x',
        estadoPago: { estado: 'PAGADO' },
      },
    });
    expect((await res.json()).data.estadoPago.estado).toBe('PAGO_PARCIAL');
  });
});
