// bench/sat-search: catalog searches from fixed lists, ranked search vs a naive ILIKE baseline, on
// PGlite and (when TEST_DATABASE_URL is set, as scripts/with-postgres.sh does) on PostgreSQL. Four
// shapes, each timed on its own: catalog words (the relevance list), sentences a person types,
// misspellings, and queries nothing matches. Target: p95 <= 10 ms on PostgreSQL and <= 30 ms on
// PGlite for every shape. CPU_PROF=<dir>: a CPU profile of each database's runs, summarised.
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { importSatCatalog } from '@folio/api';
import { BUNDLED_SAT_CATALOG, type DbHandle, openDb } from '@folio/db';
import { searchSatProducts } from '@folio/db/queries/catalogs';
import { satProducts } from '@folio/db/schema';
import { asc, ilike, or } from 'drizzle-orm';
import { SAT_RELEVANCE } from '../../packages/api/test/fixtures/sat-relevance';
import { withCpuProfile } from '../lib/cpuprofile';
import { machine, ms, summarize } from '../lib/stats';

/** The catalog shipped in packages/db/data unless SAT_CATALOG_CSV names another file. */
const CSV = process.env.SAT_CATALOG_CSV || BUNDLED_SAT_CATALOG;
const RUNS = Number(process.env.RUNS ?? 200);
const CATALOG_WORDS = [
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
const SHAPES: Record<string, string[]> = {
  'catalog words': [...SAT_RELEVANCE.map(([q]) => q), ...CATALOG_WORDS],
  // Not every word is in one description: all-words finds nothing, any-word ranks.
  sentences: [
    'le vendo pasteles a una cafetería',
    'pagué las casetas de la autopista',
    'mantenimiento de la camioneta',
    'compré una laptop para la oficina',
    'renta del local donde tengo mi negocio',
    'gasolina para el coche de reparto',
    'honorarios del contador por la declaración anual',
    'comida con clientes en un restaurante',
    'le doy clases de inglés a niños',
    'reparación del aire acondicionado de la tienda',
  ],
  misspellings: ['computadorass', 'camoineta', 'gasolna', 'restaurnte', 'papeleria escolarr', 'fumigasion'],
  'no match': ['xyzzy', 'qwerty asdfgh', 'zzzz yyyy xxxx', 'el de la que y', 'blorf snarg quux wibble'],
};
const TARGET_P95 = { PGlite: 30, PostgreSQL: 10 };

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

async function timeRuns(search: Search, queries: string[]) {
  for (const q of queries.slice(0, 5)) await search(q); // warm caches and plans
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const q = queries[i % queries.length]!;
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

async function bench(label: keyof typeof TARGET_P95, handle: DbHandle) {
  const t0 = performance.now();
  const rows = await importSatCatalog(handle.db, CSV);
  console.log(`\n== ${label}: ${rows} codes loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await withCpuProfile(`${label} searches`, () => measure(label, handle));
}

async function measure(label: keyof typeof TARGET_P95, handle: DbHandle) {
  const line = (name: string, s: ReturnType<typeof summarize>, extra = '') =>
    console.log(
      `${name.padEnd(24)} p50 ${ms(s.p50).padStart(10)}  p95 ${ms(s.p95).padStart(10)}  p99 ${ms(s.p99).padStart(10)}${extra}`,
    );
  const words = SHAPES['catalog words']!;
  const r = await timeRuns(ranked(handle), words);
  const b = await timeRuns(naive(handle), words);
  const [rh, bh] = [await hitRate(ranked(handle)), await hitRate(naive(handle))];
  line('ranked search', r, `  top-5 relevance ${rh}/${SAT_RELEVANCE.length}`);
  line('naive ILIKE', b, `  top-5 relevance ${bh}/${SAT_RELEVANCE.length}`);
  console.log(
    `ratio ranked/naive: p50 ${(r.p50 / b.p50).toFixed(2)}×  p95 ${(r.p95 / b.p95).toFixed(2)}×  (${RUNS} catalog-word searches each)`,
  );
  const target = TARGET_P95[label];
  let met = true;
  for (const [shape, queries] of Object.entries(SHAPES)) {
    const s = shape === 'catalog words' ? r : await timeRuns(ranked(handle), queries);
    const found = await Promise.all(queries.map(async (q) => (await ranked(handle)(q)).length > 0));
    met &&= s.p95 <= target;
    line(
      `  ${shape} (${queries.length})`,
      s,
      `  found something for ${found.filter(Boolean).length}/${queries.length}`,
    );
  }
  console.log(`target p95 <= ${target} ms on ${label} for every shape: ${met ? 'met' : 'NOT met'}`);
}

if (!existsSync(CSV)) {
  console.error(`catalog CSV not found at ${CSV}; set SAT_CATALOG_CSV`);
  process.exit(2);
}
console.log(
  `bench/sat-search on ${machine()}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const lite = await openDb({});
await bench('PGlite', lite);
await lite.close();
if (process.env.TEST_DATABASE_URL) {
  const pg = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL });
  await bench('PostgreSQL', pg);
  await pg.close();
}
