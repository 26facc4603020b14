import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSatCatalog } from '../src/services/sat/catalog-import';
import { fullCatalogCsv } from './catalog-file';
import { SAT_RELEVANCE } from './fixtures/sat-relevance';
import { caller, setPlan, signUp, startTestApi, type TestApi, type TestUser } from './harness';

const csv = fullCatalogCsv();
let t: TestApi;
let user: TestUser;

describe('SAT search relevance on the full catalog', () => {
  beforeAll(async () => {
    t = await startTestApi();
    await importSatCatalog(t.handle.db, csv);
    user = await signUp(t);
    await setPlan(t, user.id, 'PRO');
  }, 180_000);
  afterAll(() => t?.close());

  it.each(SAT_RELEVANCE)('"%s" finds %s in the top 5', async (query, code) => {
    const { items } = await caller(t, user.token).sat.search({ query, limit: 5 });
    expect(items.map((i) => i.id)).toContain(code);
  });
});
