// bench/sat-ai: the search by meaning on PostgreSQL (TEST_DATABASE_URL, as scripts/with-postgres.sh
// sets it) over the full catalog: the model's build time and memory, the latency of
// GET /api/sat/ai-search's procedure over the colloquial relevance set (p95 target ≤ 50 ms), and the
// top-5 hit rates of the search by meaning and of /sat/search on that set.
import { existsSync } from 'node:fs';
import { importSatCatalog, meaningModelFor, searchByMeaning } from '@folio/api';
import { caller, setPlan, signUp, testDeps } from '@folio/api/testing';
import { BUNDLED_SAT_CATALOG, openDb } from '@folio/db';
import { searchSatProducts } from '@folio/db/queries/catalogs';
import { SAT_AI_RELEVANCE } from '../../packages/api/test/fixtures/sat-ai-relevance';
import { machine, ms, summarize } from '../lib/stats';

/** The catalog shipped in packages/db/data unless SAT_CATALOG_CSV names another file. */
const CSV = process.env.SAT_CATALOG_CSV || BUNDLED_SAT_CATALOG;
const RUNS = Number(process.env.SAT_AI_RUNS ?? 300);
const QUERIES = SAT_AI_RELEVANCE.map((c) => c.query);
const MB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

if (!process.env.TEST_DATABASE_URL) {
  console.error('bench/sat-ai measures PostgreSQL: run it as `pnpm bench:sat-ai` (starts a throwaway one)');
  process.exit(2);
}
if (!existsSync(CSV)) {
  console.error(`catalog CSV not found at ${CSV}; set SAT_CATALOG_CSV`);
  process.exit(2);
}
console.log(`bench/sat-ai on ${machine()}`);
const handle = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL });
try {
  let t0 = performance.now();
  const rows = await importSatCatalog(handle.db, CSV);
  console.log(`catalog: ${rows} codes imported in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  gc();
  const before = process.memoryUsage();
  t0 = performance.now();
  const model = await meaningModelFor(handle.db);
  const buildMs = performance.now() - t0;
  gc();
  const after = process.memoryUsage();
  const arrays =
    model.termVectors.byteLength +
    model.docVectors.byteLength +
    model.idf.byteLength +
    model.postings.reduce((s, p) => s + p.doc.byteLength + p.weight.byteLength, 0);
  console.log(
    `model: ${model.ids.length} codes × ${model.dims} dims, ${model.vocabulary.size} stems; built in ${(buildMs / 1000).toFixed(2)} s; ` +
      `vectors and postings ${MB(arrays)}; heap + buffers +${MB(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers)}, ` +
      `RSS +${MB(after.rss - before.rss)} (RSS ${MB(after.rss)})`,
  );

  // The whole procedure as a client meets it: auth, plan, quota, model, full text, rows, explanations.
  const t = { handle, deps: testDeps(handle) };
  const user = await signUp(t);
  await setPlan(t, user.id, 'ENTERPRISE'); // unlimited searches, explanations on
  const api = caller(t, user.token).sat;
  for (const q of QUERIES.slice(0, 10)) await api.aiSearch({ query: q, limit: 20 }); // warm plans and JIT
  const samples: number[] = [];
  // CPU this process spends per search: what the wall clock means on a busy machine.
  const cpu = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) {
    const query = QUERIES[i % QUERIES.length]!;
    t0 = performance.now();
    await api.aiSearch({ query, limit: 20 });
    samples.push(performance.now() - t0);
  }
  const used = process.cpuUsage(cpu);
  const s = summarize(samples);
  console.log(
    `GET /api/sat/ai-search (limit 20, PRO explanations), ${RUNS} searches over ${QUERIES.length} queries: ` +
      `p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}  max ${ms(s.max)}; ` +
      `server CPU ${ms((used.user + used.system) / 1000 / RUNS)} per search`,
  );
  console.log(`target p95 <= 50 ms on PostgreSQL: ${s.p95 <= 50 ? 'met' : 'NOT met'} (${ms(s.p95)})`);

  let ai = 0;
  let basic = 0;
  for (const c of SAT_AI_RELEVANCE) {
    const meaning = (await searchByMeaning(handle.db, c.query)).codes.slice(0, 5).map((x) => x.id);
    const words = (await searchSatProducts(handle.db, { query: c.query, limit: 5, offset: 0 })).items.map(
      (x) => x.id,
    );
    if (meaning.some((id) => c.codes.includes(id))) ai++;
    if (words.some((id) => c.codes.includes(id))) basic++;
  }
  const pct = (n: number) => `${((100 * n) / SAT_AI_RELEVANCE.length).toFixed(1)} %`;
  console.log(
    `top-5 hit rate on ${SAT_AI_RELEVANCE.length} colloquial queries: search by meaning ${ai} (${pct(ai)}), /sat/search ${basic} (${pct(basic)}), ` +
      `difference ${(((ai - basic) * 100) / SAT_AI_RELEVANCE.length).toFixed(1)} points`,
  );
} finally {
  await handle.close();
}
