import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSatCatalog } from '@folio/api';
import { rowsOf } from '@folio/db';
import { satLexicon } from '@folio/db/schema';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  caller,
  expectError,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';
import { editedCatalog } from './support/catalog-csv';

// A re-import of the SAT catalog that no longer holds a code marks it removed; the row stays
// (favorites, alerts and CFDIs name it). The searches answer from the catalog as it is now, so they
// never return a removed code nor count it; GET /api/sat/{id} answers 404 (its record would say
// "fecha_fin_vigencia: null", currently valid, which it is not); a favorite keeps showing it, flagged.
// Imported here: the starter catalog without Gasolina premium (15101515) and Computadores notebook
// (43211503), then the whole starter catalog again.

let t: TestApp;
let tmp: string;
let pro: TestUser;
let original: string;
const PREMIUM = '15101515';
const NOTEBOOK = '43211503';

beforeAll(async () => {
  t = await startTestApp();
  tmp = mkdtempSync(join(tmpdir(), 'folio-sat-removed-'));
  pro = await signUp(t);
  await setPlan(t, pro.id, 'PRO');
  original = await editedCatalog(t.handle.db, join(tmp, 'original.csv'));
});
afterAll(async () => {
  await t.close();
  rmSync(tmp, { recursive: true, force: true });
});

const get = async (path: string) => {
  const res = await request(t, 'GET', path, { headers: bearer(pro.token) });
  return { status: res.status, body: await res.json() };
};
const ids = (body: { items: { id: string }[] }) => body.items.map((i) => i.id);
const removeTwoCodes = async () =>
  importSatCatalog(
    t.handle.db,
    await editedCatalog(t.handle.db, join(tmp, 'without-two.csv'), (rows) =>
      rows.filter((r) => r.id !== PREMIUM && r.id !== NOTEBOOK),
    ),
  );
const restoreCatalog = () => importSatCatalog(t.handle.db, original);
afterEach(restoreCatalog);
/** The searches each test compares before and after the removal. */
const searches = async () => ({
  words: (await get('/api/sat/search?query=gasolina')).body,
  prefix: (await get('/api/sat/search?query=432115')).body,
  all: (await get('/api/sat/search?limit=100')).body,
  iva: (await get('/api/sat/search?incluir_iva_trasladado=Opcional&limit=100')).body,
  typo: (await get('/api/sat/search?query=gasolinaa%20premiun')).body,
  trpc: await caller(t, pro.token).sat.search({ query: 'gasolina premium' }),
});

describe('codes removed from the catalog', () => {
  it('/api/sat/search and sat.search never return them, and their totals leave them out', async () => {
    const before = await searches();
    expect(ids(before.words)).toEqual(expect.arrayContaining([PREMIUM, '15101514']));
    expect(ids(before.prefix)).toContain(NOTEBOOK);
    expect(ids(before.trpc)).toContain(PREMIUM);

    await removeTwoCodes();
    const after = await searches();
    expect(ids(after.words)).toEqual(['15101514']);
    expect(after.words.total).toBe(before.words.total - 1);
    expect(ids(after.prefix)).toEqual(ids(before.prefix).filter((id) => id !== NOTEBOOK));
    expect(after.prefix.total).toBe(before.prefix.total - 1);
    for (const kind of ['all', 'iva', 'typo'] as const) {
      expect(ids(after[kind]), kind).not.toContain(PREMIUM);
      expect(ids(after[kind]), kind).not.toContain(NOTEBOOK);
    }
    expect(after.all.total).toBe(before.all.total - 2);
    expect(after.iva.total).toBe(before.iva.total - 2);
    expect(after.all.total).toBe(after.all.items.length);
    // No current code has both words: any of them, as for any sentence.
    expect(ids(before.trpc)).toEqual([PREMIUM]);
    expect(after.trpc).toMatchObject({ items: [{ id: '15101514' }], total: 1 });

    // The file that holds them again brings them back.
    await restoreCatalog();
    expect(await searches()).toMatchObject({
      words: { total: before.words.total },
      prefix: { total: before.prefix.total },
      all: { total: before.all.total },
    });
  });

  it('the search by meaning never returns them, its total leaves them out, and it sees them back after the file that holds them', async () => {
    const query = '/api/sat/ai-search?query=cargué%20gasolina%20premium&limit=50';
    const before = (await get(query)).body;
    expect(ids(before)).toContain(PREMIUM);

    await removeTwoCodes();
    const after = (await get(query)).body;
    expect(ids(after)).not.toContain(PREMIUM);
    expect(after.total).toBe(before.total - 1);
    const viaTrpc = await caller(t, pro.token).sat.aiSearch({ query: 'computadora notebook', limit: 50 });
    expect(ids(viaTrpc)).not.toContain(NOTEBOOK);

    await restoreCatalog();
    expect(ids((await get(query)).body)).toContain(PREMIUM);
  });

  it('GET /api/sat/{id} answers 404 saying the code left the catalog; sat.byId NOT_FOUND alike', async () => {
    expect((await get(`/api/sat/${PREMIUM}`)).status).toBe(200);
    await removeTwoCodes();
    const res = await request(t, 'GET', `/api/sat/${PREMIUM}`, { headers: bearer(pro.token) });
    const message = await expectError(res, 404, 'Not Found');
    expect(message).toMatch(
      /^SAT code 15101515 is no longer in the SAT catalog \(removed by the catalog import of \d{4}-\d{2}-\d{2}\)$/,
    );
    await expect(caller(t, pro.token).sat.byId({ id: NOTEBOOK })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('is no longer in the SAT catalog'),
    });
    await restoreCatalog();
    expect((await get(`/api/sat/${PREMIUM}`)).body).toMatchObject({ id: PREMIUM, fecha_fin_vigencia: null });
  });

  it('a favorite whose code was removed stays listed with removed_from_catalog_at and its last record; no new favorite of it', async () => {
    const ana = await signUp(t);
    await setPlan(t, ana.id, 'PRO');
    const put = (clave: string, body: unknown) =>
      request(t, 'PUT', `/api/sat/favorites/${clave}`, { headers: bearer(ana.token), body });
    expect((await put(PREMIUM, { nota: 'la de la camioneta' })).status).toBe(201);
    const listed = async () =>
      (await (await request(t, 'GET', '/api/sat/favorites', { headers: bearer(ana.token) })).json()).data;
    expect(await listed()).toMatchObject([{ clave: PREMIUM, removed_from_catalog_at: null }]);

    await removeTwoCodes();
    expect(await listed()).toEqual([
      expect.objectContaining({
        clave: PREMIUM,
        descripcion: 'Gasolina premium mayor o igual a 91 octanos',
        nota: 'la de la camioneta',
        removed_from_catalog_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      }),
    ]);
    // Its note can still change; a code the catalog no longer has is no new favorite, and the 404
    // says it left the catalog (as GET /api/sat/{id} does), not that it never existed.
    expect((await put(PREMIUM, { nota: 'ya no existe' })).status).toBe(200);
    expect(await expectError(await put(NOTEBOOK, {}), 404, 'Not Found')).toMatch(
      new RegExp(
        `^SAT code ${NOTEBOOK} is no longer in the SAT catalog \\(removed by the catalog import of \\d{4}-\\d{2}-\\d{2}\\)$`,
      ),
    );
    expect(await expectError(await put('99999999', {}), 404, 'Not Found')).toBe(
      'SAT code 99999999 not found',
    );

    await restoreCatalog();
    expect(await listed()).toMatchObject([
      { clave: PREMIUM, nota: 'ya no existe', removed_from_catalog_at: null },
    ]);
  });

  it('sat_lexicon keeps no stem only removed codes held, and gets it back with the code', async () => {
    // "premium" and "notebook" are in no other starter code; "gasolina" and "computadores" are.
    const stemOf = async (word: string) =>
      rowsOf<{ s: string }>(
        await t.handle.db.execute(
          sql`select unnest(tsvector_to_array(to_tsvector('es_unaccent', ${word}))) as s`,
        ),
      )[0]?.s as string;
    const [premium, notebook, gasolina, computadores] = await Promise.all(
      ['premium', 'notebook', 'gasolina', 'computadores'].map(stemOf),
    );
    const stems = [premium, notebook, gasolina, computadores] as string[];
    const lexicon = async () =>
      new Set(
        (await t.handle.db.select().from(satLexicon).where(inArray(satLexicon.lexeme, stems))).map(
          (l) => l.lexeme,
        ),
      );
    expect(await lexicon()).toEqual(new Set(stems));
    await removeTwoCodes();
    expect(await lexicon()).toEqual(new Set([gasolina, computadores]));
    await restoreCatalog();
    expect(await lexicon()).toEqual(new Set(stems));
  });
});
