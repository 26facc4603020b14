// bench/sat-search: 200 catalog searches from a fixed list, ranked search vs a naive ILIKE baseline,
// on PGlite and (when TEST_DATABASE_URL is set, as scripts/with-postgres.sh does) on PostgreSQL.
import { existsSync } from 'node:fs';
import { type DbHandle, importSatCatalog, openDb } from '@folio/db';
import { searchSatProducts } from '@folio/db/queries/catalogs';
import { satProducts } from '@folio/db/schema';
import { SAT_RELEVANCE } from '@folio/db/testing';
import { asc, ilike, or } from 'drizzle-orm';
import { machine, ms, summarize } from '../lib/stats';

const CSV =
  process.env.SAT_CATALOG_CSV ??
  new URL('../../../shared/data/sat/c_claveprodserv.csv', import.meta.url).pathname;
const RUNS = 200;
const EXTRA = [
  'vino',
  'papel',
  'servicios',
  'mantenimiento',
  'software',
  'renta',
  'ropa',
  'madera',
  'leche',
  'pintura',
];
const QUERIES = [...SAT_RELEVANCE.map(([q]) => q), ...EXTRA];

type Search = (q: string) => Promise<string[]>;

const ranked =
  (h: DbHandle): Search =>
  async (q) =>
    (await searchSatProducts(h.db, { query: q, limit: 20, offset: 0 })).items.map((i) => i.id);

// What a first version would write: substring match on the raw columns, ordered by code.
const naive =
  (h: DbHandle): Search =>
  async (q) =>
    (
      await h.db
        .select({ id: satProducts.id })
        .from(satProducts)
        .where(or(ilike(satProducts.descripcion, `%${q}%`), ilike(satProducts.palabrasSimilares, `%${q}%`)))
        .orderBy(asc(satProducts.id))
        .limit(20)
    ).map((r) => r.id);

async function timeRuns(search: Search) {
  for (const q of QUERIES.slice(0, 5)) await search(q); // warm caches and plans
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const q = QUERIES[i % QUERIES.length]!;
    const t0 = performance.now();
    await search(q);
    samples.push(performance.now() - t0);
  }
  return summarize(samples);
}

async function hitRate(search: Search) {
  let hits = 0;
  for (const [q, code] of SAT_RELEVANCE) if ((await search(q)).slice(0, 5).includes(code)) hits++;
  return hits;
}

async function bench(label: string, handle: DbHandle) {
  const t0 = performance.now();
  const rows = await importSatCatalog(handle.db, CSV);
  console.log(`\n== ${label}: ${rows} codes loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const r = await timeRuns(ranked(handle));
  const b = await timeRuns(naive(handle));
  const [rh, bh] = [await hitRate(ranked(handle)), await hitRate(naive(handle))];
  const row = (name: string, s: ReturnType<typeof summarize>, hits: number) =>
    console.log(
      `${name.padEnd(16)} p50 ${ms(s.p50).padStart(10)}  p95 ${ms(s.p95).padStart(10)}  p99 ${ms(s.p99).padStart(10)}  top-5 relevance ${hits}/${SAT_RELEVANCE.length}`,
    );
  row('ranked search', r, rh);
  row('naive ILIKE', b, bh);
  console.log(
    `ratio ranked/naive: p50 ${(r.p50 / b.p50).toFixed(2)}×  p95 ${(r.p95 / b.p95).toFixed(2)}×  (${RUNS} searches each)`,
  );
  return { r, rh, bh };
}

if (!existsSync(CSV)) {
  console.error(`catalog CSV not found at ${CSV}; set SAT_CATALOG_CSV`);
  process.exit(2);
}
console.log(`bench/sat-search on ${machine()}`);
const lite = await openDb({});
await bench('PGlite (in memory)', lite);
await lite.close();
if (process.env.TEST_DATABASE_URL) {
  const pg = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL });
  const { r } = await bench('PostgreSQL', pg);
  console.log(`target p95 <= 10 ms on PostgreSQL: ${r.p95 <= 10 ? 'met' : 'NOT met'} (${ms(r.p95)})`);
  await pg.close();
}
