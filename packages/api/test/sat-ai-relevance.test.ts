import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSatCatalog } from '../src/services/sat/catalog-import';
import { fullCatalogCsv } from './catalog-file';
import { SAT_AI_RELEVANCE } from './fixtures/sat-ai-relevance';
import { caller, setPlan, signUp, startTestApi, type TestApi, type TestUser } from './harness';

const csv = fullCatalogCsv();
let t: TestApi;
let user: TestUser;

/** Share of the relevance set whose first five results hold an accepted code. */
async function hitRate(search: (query: string) => Promise<{ items: { id: string }[] }>) {
  let hits = 0;
  for (const c of SAT_AI_RELEVANCE) {
    const { items } = await search(c.query);
    if (items.some((i) => c.codes.includes(i.id))) hits++;
  }
  return hits / SAT_AI_RELEVANCE.length;
}

describe('SAT search by meaning on the full catalog, on the colloquial relevance set', () => {
  beforeAll(async () => {
    t = await startTestApi();
    await importSatCatalog(t.handle.db, csv);
    user = await signUp(t);
    await setPlan(t, user.id, 'PRO');
  }, 180_000);
  afterAll(() => t?.close());

  it('has at least 60 queries, each with accepted codes and the reason', () => {
    expect(SAT_AI_RELEVANCE.length).toBeGreaterThanOrEqual(60);
    for (const c of SAT_AI_RELEVANCE) {
      expect(c.codes.length).toBeGreaterThan(0);
      expect(c.reason.length).toBeGreaterThan(10);
    }
  });

  let ai = 0;
  it('puts an accepted code in the top 5 for at least 80 % of the queries', async () => {
    const api = caller(t, user.token).sat;
    ai = await hitRate((query) => api.aiSearch({ query, limit: 5 }));
    console.info(`top-5 hit rate of the search by meaning: ${(ai * 100).toFixed(1)} %`);
    expect(ai).toBeGreaterThanOrEqual(0.8);
  }, 120_000);

  // /sat/search answers a sentence that matches no catalog word with its trigram fallback, seconds
  // per query on PGlite: the comparison runs on PostgreSQL (the suite's second run in .ci/run).
  it.runIf(process.env.TEST_DATABASE_URL)(
    'is at least 20 points above /sat/search on the same queries',
    async () => {
      const api = caller(t, user.token).sat;
      const basic = await hitRate((query) => api.search({ query, limit: 5 }));
      console.info(`top-5 hit rate of /sat/search: ${(basic * 100).toFixed(1)} %`);
      expect(ai - basic).toBeGreaterThanOrEqual(0.2);
    },
    300_000,
  );
});
