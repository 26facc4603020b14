// SAT sync jobs over REST and tRPC (integrations.md §1 "Sync jobs", docs/sat-sync.md#sync-jobs): the
// POST answers 202 and the job shows on GET and in the profile's list (newest first); FREE, an API
// key on the POST, another user's job and a period SAT does not serve are refused; with a job runner
// started (as sat-sync-job.test.ts does) the job reaches `terminada`, seen by polling GET.
import type { AppJobRunner } from '@folio/api';
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
  testConfig,
  uploadXml,
} from './harness';
import { simulatorInApp, startSyncRunner } from './sync-runner';

const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };
const MARCH = { desde: '2025-03-01', hasta: '2025-03-31', tipo: 'ambos', contenido: 'ambos' };

let t: TestApp;
let runner: AppJobRunner;
const sat = simulatorInApp(() => t);

beforeAll(async () => {
  t = await startTestApp({ config: { ...testConfig, sat } });
  runner = await startSyncRunner(t);
});
afterAll(async () => {
  await runner.stop();
  await t.close();
});

let rfcs = 0;
interface Owner {
  u: TestUser;
  me: Party;
  profileId: string;
}

/** A user on `plan` with a profile and, unless FREE, the simulator's e.firma stored over REST. */
async function owner(plan: 'FREE' | 'BASIC' | 'PRO' = 'PRO', verified = false): Promise<Owner> {
  const u = verified ? await signUpVerified(t) : await signUp(t);
  if (plan !== 'FREE') await setPlan(t, u.id, plan);
  const me: Party = { rfc: rfcMoral(300 + ++rfcs), nombre: 'Comercial Sincronizada', regimen: '601' };
  const profile = await createProfile(t, u, {
    nombre: me.nombre,
    rfc: me.rfc,
    tipo_persona: 'MORAL',
    regimenes_fiscales: ['601'],
  });
  if (plan !== 'FREE') {
    const issued = await request(t, 'POST', '/__dev/sat/efirma', { body: { rfc: me.rfc } });
    const e = ((await issued.json()) as { data: { cer: string; key: string; password: string } }).data;
    const form = new FormData();
    form.append('cer', new File([Buffer.from(e.cer, 'base64')], 'a.cer'));
    form.append('key', new File([Buffer.from(e.key, 'base64')], 'a.key'));
    form.append('password', e.password);
    form.append('consentimiento', 'true');
    const res = await t.app.request(`/api/profiles/${profile.id}/efirma`, {
      method: 'PUT',
      headers: bearer(u.token),
      body: form,
    });
    expect(res.status, await res.clone().text()).toBe(200);
  }
  return { u, me, profileId: profile.id };
}

const start = (o: Owner, body: unknown = MARCH, token = o.u.token) =>
  request(t, 'POST', `/api/profiles/${o.profileId}/sat-sync`, { headers: bearer(token), body });
const job = (id: string, token: string) =>
  request(t, 'GET', `/api/sat-sync/${id}`, { headers: bearer(token) });

describe('SAT sync job routes', () => {
  it('POST answers 202 {data: {id, estado: pendiente}} and GET /sat-sync/{id} shows that job', async () => {
    const o = await owner();
    const res = await start(o);
    expect(res.status).toBe(202);
    const { data } = await res.json();
    expect(data).toEqual({ id: expect.any(String), estado: 'pendiente' });
    const got = await job(data.id, o.u.token);
    expect(got.status).toBe(200);
    expect((await got.json()).data).toMatchObject({
      id: data.id,
      profile_id: o.profileId,
      desde: '2025-03-01',
      hasta: '2025-03-31',
      tipo: 'ambos',
      contenido: 'ambos',
      origen: 'usuario',
    });
  });

  it("the profile's list is newest first, over REST and tRPC alike", async () => {
    const o = await owner();
    const first = (await (await start(o)).json()).data.id;
    const second = (await (await start(o, { ...MARCH, tipo: 'emitidos' })).json()).data.id;
    const res = await request(t, 'GET', `/api/profiles/${o.profileId}/sat-sync`, {
      headers: bearer(o.u.token),
    });
    expect(res.status).toBe(200);
    const ids = ((await res.json()).data as { id: string }[]).map((j) => j.id);
    expect(ids).toEqual([second, first]);
    const listed = await caller(t, o.u.token).satSync.list({ profileId: o.profileId });
    expect(listed.data.map((j) => j.id)).toEqual([second, first]);
  });

  it('tRPC creates and reads the same job', async () => {
    const o = await owner();
    const api = caller(t, o.u.token);
    const created = await api.satSync.create({ profileId: o.profileId, ...MARCH } as never);
    expect(created.data.estado).toBe('pendiente');
    expect((await api.satSync.get({ id: created.data.id })).data.id).toBe(created.data.id);
  });

  it('FREE is refused 403 naming BASIC (plan_required)', async () => {
    const o = await owner('FREE');
    const res = await start(o);
    const body = await res.clone().json();
    await expectError(res, 403, 'Forbidden');
    expect(body.code).toBe('plan_required');
    expect(body.message).toContain('BASIC');
  });

  it('an API key may not start a job (403 session_required), yet may read the list', async () => {
    const o = await owner('PRO', true);
    const made = await request(t, 'POST', '/api/api-keys', {
      headers: bearer(o.u.token),
      body: { name: 'sync', scope: 'write' },
    });
    const key = (await made.json()).data.key as string;
    const res = await start(o, MARCH, key);
    const body = await res.clone().json();
    await expectError(res, 403, 'Forbidden');
    expect(body.code).toBe('session_required');
    const list = await request(t, 'GET', `/api/profiles/${o.profileId}/sat-sync`, { headers: bearer(key) });
    expect(list.status).toBe(200);
    expect((await list.json()).data).toEqual([]);
  });

  it("another user's job answers 404, as if there were none", async () => {
    const o = await owner();
    const id = (await (await start(o)).json()).data.id;
    const other = await owner();
    await expectError(await job(id, other.u.token), 404, 'Not Found');
    await expect(caller(t, other.u.token).satSync.get({ id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a period SAT does not serve is refused 400 sync_period_invalid with its fields, and creates nothing', async () => {
    const o = await owner();
    // hasta before desde, and more than a year: both name their field.
    const res = await start(o, { ...MARCH, desde: '2025-03-31', hasta: '2025-03-01' });
    const body = await res.clone().json();
    await expectError(res, 400, 'Bad Request');
    expect(body.code).toBe('sync_period_invalid');
    expect(body.fields.map((f: { path: string }) => f.path)).toContain('desde');
    const long = await start(o, { ...MARCH, desde: '2024-01-01', hasta: '2025-03-31' });
    const longBody = await long.json();
    expect(long.status).toBe(400);
    expect(longBody.fields.map((f: { path: string }) => f.path)).toContain('hasta');
    const list = await request(t, 'GET', `/api/profiles/${o.profileId}/sat-sync`, {
      headers: bearer(o.u.token),
    });
    expect((await list.json()).data).toEqual([]);
  });

  it('with the job runner started, the job reaches terminada (polled through GET) and counts the CFDI imported', async () => {
    const o = await owner();
    const placed = await t.app.request(`/__dev/sat/${o.me.rfc}/cfdi`, {
      method: 'POST',
      body: invoiceXml({
        uuid: newUuid(),
        emisor: o.me,
        receptor: CLIENT,
        fecha: '2025-03-10T10:00:00',
        metodoPago: 'PUE',
      }),
    });
    expect(placed.status).toBe(201);
    const id = (await (await start(o)).json()).data.id;
    const done = await vi.waitFor(
      async () => {
        const data = (await (await job(id, o.u.token)).json()).data;
        if (data.estado !== 'terminada' && data.estado !== 'error') throw new Error(`still ${data.estado}`);
        return data;
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(done.estado).toBe('terminada');
    expect(done.cfdi.importados).toBe(1);
  }, 90_000);
});

/** Uploads a sale of the owner (or a purchase, `received`) to Folio and places the same XML on the simulator. */
async function storedAndOnSat(o: Owner, received = false) {
  const uuid = newUuid();
  const [emisor, receptor] = received ? [CLIENT, o.me] : [o.me, CLIENT];
  const xml = invoiceXml({ uuid, emisor, receptor, fecha: '2025-05-01T10:00:00', metodoPago: 'PUE' });
  const up = await uploadXml(t, o.u, o.profileId, xml);
  const id = (await up.json()).data.files[0].id as string;
  const placed = await t.app.request(`/__dev/sat/${emisor.rfc}/cfdi`, { method: 'POST', body: xml });
  expect(placed.status).toBe(201);
  return { id, uuid, rfc: emisor.rfc };
}
const cancelOnSat = async (rfc: string, uuid: string) => {
  const res = await t.app.request(`/__dev/sat/${rfc}/cancel/${uuid}?fecha_cancelacion=2025-06-01`, {
    method: 'POST',
  });
  expect(res.status).toBe(200);
};
const checkStatus = (o: Owner, side: 'invoices' | 'expenses', id: string) =>
  request(t, 'POST', `/api/${side}/${id}/sat-status`, { headers: bearer(o.u.token) });

describe("POST /invoices/{id}/sat-status and /expenses/{id}/sat-status: SAT's status service for one CFDI", () => {
  it('an invoice SAT holds vigente is recorded vigente with fuente consulta; once cancelled on SAT, cancelado', async () => {
    const o = await owner('BASIC');
    const cfdi = await storedAndOnSat(o);
    const first = await checkStatus(o, 'invoices', cfdi.id);
    expect(first.status, await first.clone().text()).toBe(200);
    expect((await first.json()).data).toMatchObject({
      id: cfdi.id,
      uuid: cfdi.uuid,
      estatus_sat: 'vigente',
      estatus_fuente: 'consulta',
      sat: { estado: 'vigente' },
    });
    await cancelOnSat(cfdi.rfc, cfdi.uuid);
    const second = await checkStatus(o, 'invoices', cfdi.id);
    expect((await second.json()).data).toMatchObject({
      estatus_sat: 'cancelado',
      estatus_fuente: 'consulta',
      sat: { estado: 'cancelado' },
    });
    const got = await request(t, 'GET', `/api/invoices/${cfdi.id}`, { headers: bearer(o.u.token) });
    expect((await got.json()).estatus_sat).toBe('cancelado');
  });

  it('an expense is checked the same way, over tRPC too', async () => {
    const o = await owner();
    const cfdi = await storedAndOnSat(o, true);
    await cancelOnSat(cfdi.rfc, cfdi.uuid);
    const answer = await caller(t, o.u.token).expenses.checkSatStatus({ id: cfdi.id });
    expect(answer.data).toMatchObject({ estatus_sat: 'cancelado', estatus_fuente: 'consulta' });
  });

  it('a CFDI SAT does not know (No Encontrado) keeps desconocido and no fuente', async () => {
    const o = await owner();
    const xml = invoiceXml({ uuid: newUuid(), emisor: o.me, receptor: CLIENT, fecha: '2025-05-01T10:00:00' });
    const id = (await (await uploadXml(t, o.u, o.profileId, xml)).json()).data.files[0].id;
    const res = await checkStatus(o, 'invoices', id);
    const data = (await res.json()).data;
    expect(data).toMatchObject({ estatus_sat: 'desconocido', sat: { estado: 'no_encontrado' } });
    expect(data.estatus_fuente).toBeUndefined();
  });

  it('FREE is refused 403 naming BASIC; an invoice on the expenses route is 404', async () => {
    const free = await owner('FREE');
    const xml = invoiceXml({
      uuid: newUuid(),
      emisor: free.me,
      receptor: CLIENT,
      fecha: '2025-05-01T10:00:00',
    });
    const id = (await (await uploadXml(t, free.u, free.profileId, xml)).json()).data.files[0].id;
    const res = await checkStatus(free, 'invoices', id);
    const body = await res.clone().json();
    await expectError(res, 403, 'Forbidden');
    expect(body.code).toBe('plan_required');
    const o = await owner();
    const cfdi = await storedAndOnSat(o);
    await expectError(await checkStatus(o, 'expenses', cfdi.id), 404, 'Not Found');
  });
});
