// Support requests over REST and tRPC (integrations.md §3, docs/support.md): FREE is refused naming
// BASIC, BASIC is answered with normal priority and PRO with high, each user lists only their own, and
// invalid input is a 400 naming its fields. The business-hours arithmetic is proved in
// packages/api/test/support.test.ts with a fixed clock; here only the transport's shapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  caller,
  createProfile,
  expectError,
  request,
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

const question = {
  asunto: 'No puedo descargar un PDF',
  mensaje: 'Al descargar la factura A-1 recibo un 503.',
};

async function user(plan: 'BASIC' | 'PRO' | null) {
  const u = await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  return u;
}

const ask = (u: TestUser, body: unknown) =>
  request(t, 'POST', '/api/support/requests', { headers: bearer(u.token), body });
const listOf = async (u: TestUser) => {
  const res = await request(t, 'GET', '/api/support/requests', { headers: bearer(u.token) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: string; asunto: string }[] }).data;
};

describe('POST /api/support/requests', () => {
  it('FREE: 403 plan_required naming BASIC, and nothing recorded', async () => {
    const u = await user(null);
    const res = await ask(u, question);
    const body = (await res.clone().json()) as { code: string };
    const message = await expectError(res, 403, 'Forbidden');
    expect(body.code).toBe('plan_required');
    expect(message).toContain('BASIC');
    expect(await listOf(u)).toEqual([]);
  });

  it('BASIC: 201 with normal priority, a folio and the promised answer time', async () => {
    const u = await user('BASIC');
    const before = new Date();
    const res = await ask(u, question);
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: Record<string, string> };
    expect(Object.keys(data).sort()).toEqual(['folio', 'id', 'prioridad', 'respuesta_esperada_antes_de']);
    expect(data.prioridad).toBe('normal');
    expect(data.folio).toMatch(/^SOP-\d{4}-\d+$/);
    expect(new Date(data.respuesta_esperada_antes_de!).getTime()).toBeGreaterThan(before.getTime());
  });

  it('PRO: high priority; a profile of the caller may be named, another user’s may not', async () => {
    const u = await user('PRO');
    const own = await createProfile(t, u, { nombre: 'Propia', rfc: rfcMoral(201), tipo_persona: 'MORAL' });
    const res = await ask(u, { ...question, profileId: own.id });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { data: { prioridad: string } }).data.prioridad).toBe('alta');

    const other = await user('PRO');
    const theirs = await createProfile(t, other, {
      nombre: 'Ajena',
      rfc: rfcMoral(202),
      tipo_persona: 'MORAL',
    });
    const refused = await ask(u, { ...question, profileId: theirs.id });
    expect([403, 404]).toContain(refused.status);
    expect(await listOf(u)).toHaveLength(1);
  });

  it('invalid input: 400 validation_failed naming each field, nothing recorded', async () => {
    const u = await user('BASIC');
    const res = await ask(u, { asunto: '', mensaje: 'x'.repeat(10_001) });
    const body = (await res.clone().json()) as { code: string; fields: { path: string }[] };
    await expectError(res, 400, 'Bad Request');
    expect(body.code).toBe('validation_failed');
    expect(body.fields.map((f) => f.path).sort()).toEqual(['asunto', 'mensaje']);
    expect(await listOf(u)).toEqual([]);
  });
});

describe('GET /api/support/requests', () => {
  it('lists the caller’s own requests only, newest first', async () => {
    const a = await user('BASIC');
    const b = await user('PRO');
    const first = await ask(a, { ...question, asunto: 'Primera' });
    const second = await ask(a, { ...question, asunto: 'Segunda' });
    await ask(b, { ...question, asunto: 'De otra persona' });
    const ids = [(await second.json()).data.id, (await first.json()).data.id];
    const mine = await listOf(a);
    expect(mine.map((r) => r.id)).toEqual(ids);
    expect(mine.map((r) => r.asunto)).toEqual(['Segunda', 'Primera']);
    expect((await listOf(b)).map((r) => r.asunto)).toEqual(['De otra persona']);
  });
});

describe('tRPC support.create and support.list', () => {
  it('answers the same shapes: FREE FORBIDDEN, BASIC normal, the list the caller’s own', async () => {
    const free = caller(t, (await user(null)).token);
    await expect(free.support.create(question)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const basic = caller(t, (await user('BASIC')).token);
    const { data } = await basic.support.create(question);
    expect(data.prioridad).toBe('normal');
    expect((await basic.support.list()).data.map((r) => r.id)).toEqual([data.id]);
    await expect(basic.support.create({ asunto: ' ', mensaje: 'x' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});
