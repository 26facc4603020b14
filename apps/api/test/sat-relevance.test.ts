import { importSatCatalog } from '@folio/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullCatalogCsv } from './catalog-file';
import { bearer, request, setPlan, signUp, startTestApp, type TestApp, type TestUser } from './harness';

// Real-world queries a taxpayer types, and the code that must be among the first five results.
export const RELEVANCE: [query: string, code: string][] = [
  ['computadora', '43211500'],
  ['Computadoras', '43211500'],
  ['laptop', '43211508'], // only in palabras_similares
  ['gasolina', '15101514'],
  ['gasolina premium', '15101515'],
  ['diesel', '15101505'],
  ['servicios contables', '84111500'],
  ['honorarios contables', '84111500'], // only in palabras_similares
  ['hotel', '90111500'],
  ['restaurantes', '90101501'],
  ['uniforme', '53102700'],
  ['cerveza', '50202201'],
  ['telefonia celular', '83111603'],
  ['teléfonos móviles', '43191501'],
  ['transporte de carga por carretera', '78101800'],
  ['agua embotellada', '50202301'],
  ['publicidad impresa', '82101500'],
  ['seguro de automoviles', '84131503'],
  ['CEMENTO', '30111601'],
  ['llantas para automóviles', '25172504'],
  ['consultoría de negocios', '80101500'],
  ['articulos de papeleria', '44121600'], // only in palabras_similares
  ['arrendamiento de oficinas', '80131505'],
  ['vinos', '50202203'],
  ['renta de oficinas', '80131505'], // only in palabras_similares
];

const csv = fullCatalogCsv();
let t: TestApp;
let user: TestUser;

describe.skipIf(!csv)('SAT search relevance on the full catalog', () => {
  beforeAll(async () => {
    t = await startTestApp();
    await importSatCatalog(t.handle.db, csv!);
    user = await signUp(t);
    await setPlan(t, user.id, 'PRO');
  }, 180_000);
  afterAll(() => t?.close());

  it.each(RELEVANCE)('"%s" finds %s in the top 5', async (query, code) => {
    const res = await request(t, 'GET', `/api/sat/search?limit=5&query=${encodeURIComponent(query)}`, {
      headers: bearer(user.token),
    });
    const ids = (await res.json()).items.map((i: { id: string }) => i.id);
    expect(ids).toContain(code);
  });
});

it.runIf(!csv)('SAT relevance list skipped: the full catalog CSV is not here (set SAT_CATALOG_CSV)', () => {});
