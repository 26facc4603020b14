import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSatCatalog, importSatCatalog, mailSatAlerts } from '@folio/api';
import { satFavorites, satProducts, satSearchHistory } from '@folio/db/schema';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelNowInPortal, current, subscribe } from './billing-helpers';
import {
  bearer,
  caller,
  expectError,
  request,
  setPlan,
  signUp,
  signUpVerified,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';
import { editedCatalog } from './support/catalog-csv';

// plan-features §4: search history, favorite codes and the alerts a catalog import raises on them.
// Each is PRO-only (satHasHistory, satHasFavorites, satHasAlerts); a downgrade hides, never deletes.

let t: TestApp;
let tmp: string;
beforeAll(async () => {
  t = await startTestApp();
  tmp = mkdtempSync(join(tmpdir(), 'folio-sat-alerts-'));
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

const as = (u: TestUser) => ({ headers: bearer(u.token) });
const get = (u: TestUser, path: string) => request(t, 'GET', path, as(u));
const put = (u: TestUser, clave: string, body: unknown = {}) =>
  request(t, 'PUT', `/api/sat/favorites/${clave}`, { ...as(u), body });

async function pro(): Promise<TestUser> {
  const u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  return u;
}

/** Every route of §4 this file covers, as the caller would send it. */
const ROUTES: [string, string, unknown?][] = [
  ['GET', '/api/sat/history'],
  ['DELETE', '/api/sat/history'],
  ['GET', '/api/sat/favorites'],
  ['PUT', '/api/sat/favorites/43231500', { nota: 'x' }],
  ['DELETE', '/api/sat/favorites/43231500'],
  ['GET', '/api/sat/alerts'],
  ['POST', '/api/sat/alerts/00000000-0000-0000-0000-000000000000/read'],
];
const FEATURE_OF: Record<string, string> = {
  history: 'SAT search history requires the PRO plan; upgrade with POST /api/subscription/create-checkout',
  favorites: 'SAT favorites requires the PRO plan; upgrade with POST /api/subscription/create-checkout',
  alerts: 'SAT catalog alerts requires the PRO plan; upgrade with POST /api/subscription/create-checkout',
};

describe('the plan gates (satHasHistory, satHasFavorites, satHasAlerts)', () => {
  it.each(['FREE', 'BASIC'] as const)(
    '%s: every route answers 403 Forbidden naming the PRO plan',
    async (plan) => {
      const u = await signUp(t);
      if (plan === 'BASIC') await setPlan(t, u.id, 'BASIC');
      for (const [method, path, body] of ROUTES) {
        const res = await request(t, method, path, { ...as(u), body });
        const feature = path.split('/')[3] as string;
        expect(await expectError(res, 403, 'Forbidden'), `${method} ${path}`).toBe(FEATURE_OF[feature]);
      }
    },
  );

  it('the tRPC procedures answer FORBIDDEN with the same message', async () => {
    const u = await signUp(t);
    const api = caller(t, u.token);
    await expect(api.sat.history.list({})).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: FEATURE_OF.history,
    });
    await expect(api.sat.favorites.save({ id: '43231500' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: FEATURE_OF.favorites,
    });
    await expect(api.sat.alerts.list({})).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: FEATURE_OF.alerts,
    });
  });

  it('PRO: every route is open', async () => {
    const u = await pro();
    expect((await get(u, '/api/sat/history')).status).toBe(200);
    expect((await get(u, '/api/sat/favorites')).status).toBe(200);
    expect((await get(u, '/api/sat/alerts')).status).toBe(200);
  });
});

describe('search history', () => {
  it('records each basic search of a PRO user, newest first, with its filters and total', async () => {
    const u = await pro();
    const first = await get(u, '/api/sat/search?query=computadora');
    const { total } = await first.json();
    await get(u, '/api/sat/search?query=servicios&incluir_iva_trasladado=Opcional&limit=5');

    const res = await get(u, '/api/sat/history');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.pagination).toEqual({
      total: 2,
      page: 1,
      limit: 20,
      totalPages: 1,
      totalExact: true,
      offset: 0,
    });
    expect(body.data.map((h: { query: string }) => h.query)).toEqual(['servicios', 'computadora']);
    expect(body.data[1]).toEqual({
      id: expect.any(String),
      tipo: 'basic',
      query: 'computadora',
      filtros: {},
      total,
      created_at: expect.any(String),
    });
    expect(body.data[0].filtros).toEqual({ incluir_iva_trasladado: 'Opcional' });
  });

  it('records searches by meaning as tipo "ai" (PRO), and not those of BASIC, which has no history', async () => {
    const u = await pro();
    const ai = await get(u, '/api/sat/ai-search?query=renta%20de%20un%20depa');
    expect(ai.status).toBe(200);
    const { total } = await ai.json();
    await get(u, '/api/sat/search?query=laptop');
    const { data } = await (await get(u, '/api/sat/history')).json();
    expect(data.map((h: { tipo: string; query: string }) => [h.tipo, h.query])).toEqual([
      ['basic', 'laptop'],
      ['ai', 'renta de un depa'],
    ]);
    expect(data[1]).toMatchObject({ filtros: {}, total });

    const basic = await signUp(t);
    await setPlan(t, basic.id, 'BASIC');
    expect((await get(basic, '/api/sat/ai-search?query=pasteles')).status).toBe(200);
    await setPlan(t, basic.id, 'PRO');
    expect((await (await get(basic, '/api/sat/history')).json()).data).toEqual([]);
  });

  it('a history write that fails does not fail the search (it was answered and counted)', async () => {
    const u = await pro();
    const db = t.handle.db;
    await db.execute(sql`create function refuse_history() returns trigger language plpgsql
      as $$ begin raise exception 'history is down'; end $$`);
    await db.execute(sql`create trigger refuse_history before insert on sat_search_history
      for each row execute function refuse_history()`);
    try {
      const res = await get(u, '/api/sat/search?query=computadora');
      expect(res.status).toBe(200);
      expect((await res.json()).items.length).toBeGreaterThan(0);
    } finally {
      await db.execute(sql`drop trigger refuse_history on sat_search_history`);
      await db.execute(sql`drop function refuse_history()`);
    }
    expect((await (await get(u, '/api/sat/history')).json()).data).toEqual([]);
  });

  it('pages with limit and offset', async () => {
    const u = await pro();
    for (const q of ['uno', 'dos', 'tres']) await get(u, `/api/sat/search?query=${q}`);
    const body = await (await get(u, '/api/sat/history?limit=1&offset=1')).json();
    expect(body.data.map((h: { query: string }) => h.query)).toEqual(['dos']);
    expect(body.pagination).toEqual({
      total: 3,
      page: 2,
      limit: 1,
      totalPages: 3,
      totalExact: true,
      offset: 1,
    });
    await expectError(await get(u, '/api/sat/history?limit=0'), 400, 'Bad Request');
  });

  it('does not record the searches of a plan without history (FREE, BASIC)', async () => {
    const u = await signUp(t);
    await get(u, '/api/sat/search?query=computadora');
    await setPlan(t, u.id, 'BASIC');
    await get(u, '/api/sat/search?query=laptop');
    await setPlan(t, u.id, 'PRO');
    expect((await (await get(u, '/api/sat/history')).json()).data).toEqual([]);
  });

  it('DELETE clears only the caller’s history and answers 200 {message}', async () => {
    const [u, other] = [await pro(), await pro()];
    await get(u, '/api/sat/search?query=computadora');
    await get(other, '/api/sat/search?query=laptop');
    const res = await request(t, 'DELETE', '/api/sat/history', as(u));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Deleted 1 search from the history' });
    expect((await (await get(u, '/api/sat/history')).json()).data).toEqual([]);
    expect((await (await get(other, '/api/sat/history')).json()).data).toHaveLength(1);
  });

  /** A user with 1,000 old searches on record, the oldest 'vieja 0'. */
  const withFullHistory = async () => {
    const u = await pro();
    const old = new Date('2025-01-01T00:00:00Z').getTime();
    await t.handle.db.insert(satSearchHistory).values(
      Array.from({ length: 1000 }, (_, i) => ({
        id: `seed-${u.id}-${i}`,
        userId: u.id,
        tipo: 'basic' as const,
        query: `vieja ${i}`,
        filtros: {},
        total: 0,
        createdAt: new Date(old + i * 1000),
      })),
    );
    return u;
  };
  const stored = async (u: TestUser) =>
    t.handle.db
      .select({ query: satSearchHistory.query })
      .from(satSearchHistory)
      .where(eq(satSearchHistory.userId, u.id))
      .orderBy(asc(satSearchHistory.createdAt));

  it('keeps the newest 1,000 searches of a user', async () => {
    const u = await withFullHistory();
    await get(u, '/api/sat/search?query=computadora');
    const body = await (await get(u, '/api/sat/history?limit=1')).json();
    expect(body.pagination.total).toBe(1000);
    expect(body.data[0].query).toBe('computadora');
    // The 1,000th newest is the second oldest seeded; 'vieja 0' is past the cap and no page shows it.
    const last = await (await get(u, '/api/sat/history?limit=5&offset=999')).json();
    expect(last.data.map((e: { query: string }) => e.query)).toEqual(['vieja 1']);
  });

  it('prunes what is past the newest 1,000 on every 16th search of the month', async () => {
    const u = await withFullHistory();
    // Searches 1 to 15 of the month only add: 1,000 seeded + 15 stored.
    for (let i = 1; i <= 15; i++) await get(u, `/api/sat/search?query=agua${i}`);
    expect(await stored(u)).toHaveLength(1000 + 15);
    // The 16th prunes to the newest 1,000: 1,016 - 1,000 = 16 oldest gone, 'vieja 16' now the oldest.
    await get(u, '/api/sat/search?query=computadora');
    const left = await stored(u);
    expect(left).toHaveLength(1000);
    expect(left[0]?.query).toBe('vieja 16');
  });
});

describe('favorites', () => {
  it('PUT adds a code (201), updates its note (200); GET lists it as /sat/{id} serves it plus clave, nota, added_at, removed_from_catalog_at', async () => {
    const u = await pro();
    const added = await put(u, '43231500', { nota: 'Licencias que revendo' });
    expect(added.status).toBe(201);
    expect((await added.json()).data).toMatchObject({ clave: '43231500', nota: 'Licencias que revendo' });

    const updated = await put(u, '43231500', { nota: 'Otra nota' });
    expect(updated.status).toBe(200);
    // An omitted nota keeps the note; null clears it.
    expect((await (await put(u, '43231500')).json()).data.nota).toBe('Otra nota');

    const record = await (await get(u, '/api/sat/43231500')).json();
    const { data } = await (await get(u, '/api/sat/favorites')).json();
    expect(data).toEqual([
      {
        ...record,
        clave: '43231500',
        nota: 'Otra nota',
        added_at: expect.any(String),
        removed_from_catalog_at: null,
      },
    ]);
    expect((await (await put(u, '43231500', { nota: null })).json()).data.nota).toBeNull();
  });

  it('lists newest first and only the caller’s own', async () => {
    const [u, other] = [await pro(), await pro()];
    await put(u, '43211508');
    await put(u, '80111600');
    await put(other, '84111506');
    const { data } = await (await get(u, '/api/sat/favorites')).json();
    expect(data.map((f: { clave: string }) => f.clave)).toEqual(['80111600', '43211508']);
  });

  it('an unknown code is 404, a malformed one or an overlong note 400; nothing is saved', async () => {
    const u = await pro();
    expect(await expectError(await put(u, '99999999'), 404, 'Not Found')).toBe('SAT code 99999999 not found');
    await expectError(await put(u, '4323'), 400, 'Bad Request');
    await expectError(await put(u, '43231500', { nota: 'x'.repeat(501) }), 400, 'Bad Request');
    expect((await (await get(u, '/api/sat/favorites')).json()).data).toEqual([]);
  });

  it('DELETE removes a favorite (200); one that is not a favorite is 404', async () => {
    const u = await pro();
    await put(u, '43231500');
    const del = await request(t, 'DELETE', '/api/sat/favorites/43231500', as(u));
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ message: 'SAT code 43231500 removed from favorites' });
    const again = await request(t, 'DELETE', '/api/sat/favorites/43231500', as(u));
    expect(await expectError(again, 404, 'Not Found')).toBe('SAT code 43231500 is not a favorite');
  });

  it('holds at most 500 favorites per user (403), decided in the database', async () => {
    const u = await pro();
    const codes = Array.from({ length: 501 }, (_, i) => `9998${String(i).padStart(4, '0')}`);
    await t.handle.db
      .insert(satProducts)
      .values(
        codes.map((id) => ({
          id,
          descripcion: `Producto de prueba ${id}`,
          incluirIvaTrasladado: 'Opcional',
          incluirIepsTrasladado: 'Opcional',
          fechaInicioVigencia: '2019-01-07',
          estimuloFranjaFronteriza: '0',
        })),
      )
      .onConflictDoNothing();
    await t.handle.db
      .insert(satFavorites)
      .values(codes.slice(0, 499).map((clave) => ({ userId: u.id, clave })));
    // Two at once for the last free place: exactly one gets it.
    const both = await Promise.all([put(u, codes[499] as string), put(u, codes[500] as string)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 403]);
    const refused = both.find((r) => r.status === 403) as Response;
    expect(await expectError(refused, 403, 'Forbidden')).toMatch(/500 favorite SAT codes/);
    // Updating an existing one's note is still allowed at the limit.
    expect((await put(u, codes[0] as string, { nota: 'sigue' })).status).toBe(200);
  });
});

describe('a downgrade hides history and favorites; an upgrade brings them back', () => {
  it('PRO → cancelled through the dev billing portal → 403, nothing deleted → PRO again: all there', async () => {
    const u = await signUpVerified(t);
    await subscribe(t, u, { plan: 'PRO', billing: 'monthly' });
    await put(u, '43231500', { nota: 'mía' });
    await get(u, '/api/sat/search?query=software');

    await cancelNowInPortal(t, u);
    expect(await current(t, u)).toMatchObject({ plan: 'FREE', status: 'CANCELLED' });
    await expectError(await get(u, '/api/sat/favorites'), 403, 'Forbidden');
    await expectError(await get(u, '/api/sat/history'), 403, 'Forbidden');
    // A FREE search is not recorded, and the saved rows are still in the database.
    await get(u, '/api/sat/search?query=laptop');
    expect(await t.handle.db.select().from(satFavorites).where(eq(satFavorites.userId, u.id))).toHaveLength(
      1,
    );

    await subscribe(t, u, { plan: 'PRO', billing: 'monthly' });
    const favorites = (await (await get(u, '/api/sat/favorites')).json()).data;
    expect(favorites).toMatchObject([{ clave: '43231500', nota: 'mía' }]);
    const history = (await (await get(u, '/api/sat/history')).json()).data;
    expect(history.map((h: { query: string }) => h.query)).toEqual(['software']);
  });
});

// ---- alerts from a catalog re-import --------------------------------------------------------------

/** The alert mails in the outbox for `email` (registration mails left out). */
const alertMailsTo = async (email: string) =>
  (
    (await (await t.app.request(`/__dev/mail.json?to=${encodeURIComponent(email)}`)).json()) as {
      data: { subject: string; text: string }[];
    }
  ).data.filter((m) => m.subject.startsWith('El SAT cambió'));

const alertsOf = async (u: TestUser) => (await (await get(u, '/api/sat/alerts')).json()).data;

describe('alerts from a catalog re-import', () => {
  it('records one alert per change of a favorited code and mails each user once per import run', async () => {
    const ana = await pro();
    const beto = await pro();
    const carla = await pro(); // favorites, then downgraded: alerts kept, no mail
    for (const c of ['81112000', '43231500', '80141600']) await put(ana, c);
    for (const c of ['50202301', '85121800', '90101500', '81112000']) await put(beto, c);
    await put(carla, '81112000');
    await setPlan(t, carla.id, 'PRO', 'CANCELLED');

    const file = await editedCatalog(t.handle.db, join(tmp, 'edited.csv'), (rows) =>
      rows
        .filter((r) => r.id !== '80141600') // eliminada
        .map((r) => {
          if (r.id === '81112000') return { ...r, fechaFinVigencia: '2026-12-31' };
          if (r.id === '43231500') return { ...r, incluirIvaTrasladado: 'Sí' };
          if (r.id === '50202301') return { ...r, incluirIepsTrasladado: 'Sí' };
          if (r.id === '85121800') return { ...r, complementoQueDebeIncluir: 'Servicios de salud' };
          if (r.id === '90101500') return { ...r, descripcion: 'Restaurantes y servicios de comida' };
          // Not watched: a change of similar words raises no alert.
          if (r.id === '43211508') return { ...r, palabrasSimilares: 'laptop, notebook' };
          return r;
        }),
    );
    const before = await t.handle.db.select().from(satProducts).where(eq(satProducts.id, '90101500'));
    await importSatCatalog(t.handle.db, file);
    // Ana and Beto, and users of the tests above whose favorites changed too: one mail per user.
    expect((await mailSatAlerts(t.deps)).mails).toBeGreaterThanOrEqual(2);

    const anaAlerts = await alertsOf(ana);
    expect(anaAlerts.map((a: { clave: string; cambio: string }) => [a.clave, a.cambio]).sort()).toEqual([
      ['43231500', 'iva'],
      ['80141600', 'eliminada'],
      ['81112000', 'fin_vigencia'],
    ]);
    expect(anaAlerts.find((a: { cambio: string }) => a.cambio === 'iva')).toEqual({
      id: expect.any(String),
      clave: '43231500',
      cambio: 'iva',
      antes: 'Opcional',
      despues: 'Sí',
      detected_at: expect.any(String),
      read_at: null,
    });
    expect(anaAlerts.find((a: { cambio: string }) => a.cambio === 'fin_vigencia')).toMatchObject({
      antes: null,
      despues: '2026-12-31',
    });
    expect(anaAlerts.find((a: { cambio: string }) => a.cambio === 'eliminada')).toMatchObject({
      antes: 'Actividades de ventas y promoción de negocios',
      despues: null,
    });
    const betoAlerts = await alertsOf(beto);
    expect(betoAlerts.map((a: { clave: string; cambio: string }) => [a.clave, a.cambio]).sort()).toEqual([
      ['50202301', 'ieps'],
      ['81112000', 'fin_vigencia'],
      ['85121800', 'complemento'],
      ['90101500', 'descripcion'],
    ]);
    expect(betoAlerts.find((a: { cambio: string }) => a.cambio === 'descripcion')).toMatchObject({
      antes: before[0]?.descripcion,
      despues: 'Restaurantes y servicios de comida',
    });

    // One mail each, in Spanish, naming the changes; none for the downgraded user.
    const [anaMail, ...moreForAna] = await alertMailsTo(ana.email);
    expect(moreForAna).toEqual([]);
    expect(anaMail?.subject).toBe('El SAT cambió 3 claves de tus favoritos');
    expect(anaMail?.text).toContain('43231500: IVA trasladado cambió de «Opcional» a «Sí».');
    expect(anaMail?.text).toContain('80141600: ya no está en el catálogo del SAT');
    expect(await alertMailsTo(beto.email)).toHaveLength(1);
    expect(await alertMailsTo(carla.email)).toEqual([]);
    await setPlan(t, carla.id, 'PRO');
    expect((await alertsOf(carla)).map((a: { cambio: string }) => a.cambio)).toEqual(['fin_vigencia']);

    // The same file again: nothing changed, so no alert and no mail.
    await importSatCatalog(t.handle.db, file);
    expect(await mailSatAlerts(t.deps)).toEqual({ mails: 0 });
    expect(await alertsOf(ana)).toHaveLength(3);
    expect(await alertMailsTo(ana.email)).toHaveLength(1);

    // Marking one read: 200 with read_at; another user's alert is 404.
    const iva = anaAlerts.find((a: { cambio: string }) => a.cambio === 'iva');
    const read = await request(t, 'POST', `/api/sat/alerts/${iva.id}/read`, as(ana));
    expect(read.status).toBe(200);
    const { data } = await read.json();
    expect(data.read_at).toEqual(expect.any(String));
    const again = await (await request(t, 'POST', `/api/sat/alerts/${iva.id}/read`, as(ana))).json();
    expect(again.data.read_at).toBe(data.read_at);
    await expectError(await request(t, 'POST', `/api/sat/alerts/${iva.id}/read`, as(beto)), 404, 'Not Found');
    expect(await caller(t, ana.token).sat.alerts.read({ id: iva.id })).toMatchObject({
      data: { id: iva.id },
    });
  });

  it('start-up with a newer SAT_CATALOG_CSV raises the alerts too; the same file again changes nothing', async () => {
    const u = await pro();
    await put(u, '72101500');
    const newer = await editedCatalog(t.handle.db, join(tmp, 'newer.csv'), (rows) =>
      rows.map((r) => (r.id === '72101500' ? { ...r, incluirIepsTrasladado: 'Sí' } : r)),
    );
    expect(await ensureSatCatalog(t.handle.db, newer)).toMatchObject({ kind: 'csv' });
    await mailSatAlerts(t.deps);
    expect(await alertsOf(u)).toMatchObject([
      { clave: '72101500', cambio: 'ieps', antes: 'Opcional', despues: 'Sí' },
    ]);
    expect(await alertMailsTo(u.email)).toHaveLength(1);

    expect(await ensureSatCatalog(t.handle.db, newer)).toMatchObject({ kind: 'existing' });
    expect(await mailSatAlerts(t.deps)).toEqual({ mails: 0 });
    expect(await alertsOf(u)).toHaveLength(1);
  });
});
