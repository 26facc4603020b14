import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  caller,
  cookie,
  expectError,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

// The HTTP shape of /api/sat. What the search finds and its plan limits are tested next to the
// service, in packages/api/test/sat.test.ts and sat-relevance.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (u: TestUser, path: string) => request(t, 'GET', path, { headers: cookie(u.token) });
const SAT_KEYS = [
  'complemento_que_debe_incluir',
  'created_at',
  'descripcion',
  'estimulo_franja_fronteriza',
  'fecha_fin_vigencia',
  'fecha_inicio_vigencia',
  'id',
  'incluir_ieps_trasladado',
  'incluir_iva_trasladado',
  'palabras_similares',
  'updated_at',
];

describe('GET /api/sat/regimenes-fiscales', () => {
  it('lists the 19 regimes with the spec fields', async () => {
    const u = await signUp(t);
    const { data } = await (await get(u, '/api/sat/regimenes-fiscales')).json();
    expect(data).toHaveLength(19);
    expect(data[0]).toEqual({
      clave: '601',
      descripcion: 'General de Ley Personas Morales',
      aplica_persona_fisica: false,
      aplica_persona_moral: true,
    });
  });

  it('filters on the física/moral flags (610 and 626 are in both), and refuses another value with 400', async () => {
    const u = await signUp(t);
    const fisica = (await (await get(u, '/api/sat/regimenes-fiscales?tipo_persona=FISICA')).json()).data;
    const moral = (await (await get(u, '/api/sat/regimenes-fiscales?tipo_persona=MORAL')).json()).data;
    const codes = (rows: { clave: string }[]) => rows.map((r) => r.clave);
    expect(codes(fisica)).toEqual(expect.arrayContaining(['605', '612', '610', '626']));
    expect(codes(fisica)).not.toContain('601');
    expect(codes(moral)).toEqual(['601', '603', '610', '620', '622', '623', '624', '626']);
    await expectError(await get(u, '/api/sat/regimenes-fiscales?tipo_persona=OTRA'), 400, 'Bad Request');
  });
});

describe('GET /api/sat/{id}', () => {
  it('returns the record at the top level with the spec fields', async () => {
    const u = await signUp(t);
    const res = await get(u, '/api/sat/43211508');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(SAT_KEYS);
    expect(body).toMatchObject({
      id: '43211508',
      descripcion: 'Computadores personales',
      fecha_fin_vigencia: null,
    });
  });

  it('answers 400 for anything but 8 digits and 404 for an unknown code', async () => {
    const u = await signUp(t);
    for (const id of ['4321150', '432115080', 'abcdefgh', '4321150x']) {
      await expectError(await get(u, `/api/sat/${id}`), 400, 'Bad Request');
    }
    await expectError(await get(u, '/api/sat/99999999'), 404, 'Not Found');
  });
});

describe('GET /api/sat/search', () => {
  it('answers {items, total, limit, offset}; search and regimenes-fiscales are not taken for {id}', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    const body = await (await get(u, '/api/sat/search?query=computadoras&limit=2')).json();
    expect(Object.keys(body).sort()).toEqual(['items', 'limit', 'offset', 'total']);
    expect(body.items).toHaveLength(2);
    expect(body).toMatchObject({ limit: 2, offset: 0 });
    expect(body.total).toBeGreaterThanOrEqual(4);
    expect(Object.keys(body.items[0]).sort()).toEqual(SAT_KEYS);
  });

  it('filters on incluir_iva_trasladado / incluir_ieps_trasladado and validates them', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    const opcional = await (await get(u, '/api/sat/search?incluir_iva_trasladado=Opcional&limit=100')).json();
    expect(opcional.total).toBeGreaterThan(0);
    const si = await (
      await get(u, `/api/sat/search?incluir_ieps_trasladado=${encodeURIComponent('Sí')}`)
    ).json();
    expect(si).toMatchObject({ items: [], total: 0 });
    await expectError(await get(u, '/api/sat/search?incluir_iva_trasladado=Maybe'), 400, 'Bad Request');
  });

  it('validates limit 1-100 and offset >= 0 with 400', async () => {
    const u = await signUp(t);
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'limit=2.5']) {
      await expectError(await get(u, `/api/sat/search?${q}`), 400, 'Bad Request');
    }
  });

  it('counts searches per month and answers 429 with Retry-After past the plan quota (FREE: 10)', async () => {
    const u = await signUp(t);
    for (let i = 1; i <= 10; i++) {
      const res = await get(u, '/api/sat/search?query=agua');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-quota-limit')).toBe('10');
      expect(res.headers.get('x-quota-remaining')).toBe(String(10 - i));
    }
    const res = await get(u, '/api/sat/search?query=agua');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.headers.get('x-quota-remaining')).toBe('0');
    await expectError(res, 429, 'Too Many Requests');
  });

  it('answers 401 without a token, and works the same through the tRPC caller', async () => {
    await expectError(await request(t, 'GET', '/api/sat/search'), 401, 'Unauthorized');
    const u = await signUp(t);
    const res = await caller(t, u.token).sat.search({ query: 'gasolina', limit: 3, offset: 0 });
    expect(res.items.map((i) => i.id)).toContain('15101514');
    await expect(caller(t, u.token).sat.byId({ id: '123' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('accepts the cookie and the Bearer token alike', async () => {
    const u = await signUp(t);
    expect((await request(t, 'GET', '/api/sat/43211500', { headers: bearer(u.token) })).status).toBe(200);
  });
});
