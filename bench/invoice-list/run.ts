// bench/invoice-list: GET /api/invoices on PostgreSQL with 1,000,000 CFDI over 100 profiles of one
// user, under load (autocannon, 10 connections, bounded time per scenario): filtered by profile +
// month, and full-text `search` over all the user's invoices. Baseline in the same run: a bare Hono +
// postgres.js server (baseline.ts) running the same statements, under the same load; then Folio again
// paced at half its saturated rate (latency without queueing). CPU per request of each server and of
// PostgreSQL is read from /proc, which other load on the machine hardly moves. Also prints EXPLAIN
// (ANALYZE, BUFFERS) of both listings and the time of every search term. Targets (issue 19): filtered
// throughput ≥ 90 % of the baseline's and p99 ≤ 25 ms paced at half the saturated rate; search p99 ≤
// 60 ms and PostgreSQL CPU ≤ 3 ms per request.
// Run: bash ../scripts/with-postgres.sh tsx invoice-list/run.ts   (env ROWS, PROFILES, DURATION, WARMUP, ROUNDS;
// PARTS=filtered or PARTS=search runs one scenario; REUSE=1 on a kept cluster (TEST_DATABASE_URL and
// PG_TEST_DATA set by hand) takes the user and rows an earlier run seeded instead of seeding again)
import os from 'node:os';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { printCpuProfile } from '../lib/cpuprofile';
import { cpuMs, postgresCpuMs } from '../lib/proc';
import { api, type Child, signIn, startBenchScript, startFolio } from '../lib/server';
import { machine } from '../lib/stats';
import { inline, type ListFilter, listQueries } from './queries';
import { FIRST, seedCfdis, seedProfiles } from './seed';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const PROFILES = Number(process.env.PROFILES ?? 100);
const DURATION = Number(process.env.DURATION ?? 40);
const WARMUP = Number(process.env.WARMUP ?? 3);
/** Pairs of Folio and baseline runs each server's DURATION is split into (see the load section). */
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONNECTIONS = 10;
/** A directory: profile the real server's CPU (node --cpu-prof) and print a summary at the end. */
const CPU_PROF = process.env.CPU_PROF;
const PARTS = (process.env.PARTS ?? 'filtered,search').split(',') as ('filtered' | 'search')[];
const REUSE = process.env.REUSE === '1';
const TARGET = { filteredPacedP99: 25, filteredRatio: 0.9, searchP99: 60, searchPgCpu: 3 };

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.error(
    'TEST_DATABASE_URL not set: run via scripts/with-postgres.sh (pnpm --filter @folio/bench run invoice-list)',
  );
  process.exit(2);
}
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const log = (s: string) => console.log(s);
log(`bench/invoice-list on ${machine()}; load average ${load()}`);

const children: Child[] = [];
const sql = postgres(url, { max: 2, onnotice: () => {} });
try {
  // The real server first: it applies the migrations. Then one user, on PRO, with the seeded data.
  const folio = await startFolio(
    { DATABASE_URL: url, TRUST_PROXY: 'true' },
    CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [],
  );
  children.push(folio);
  const [seeded] = REUSE
    ? await sql<
        { email: string }[]
      >`select email from users where email like 'bench-%' order by created_at limit 1`
    : [];
  const email = seeded?.email ?? `bench-${Date.now()}@example.com`;
  const { token, userId } = await signIn(folio.url, email, '10.9.1.1', { registered: !!seeded });
  const t0 = performance.now();
  if (seeded) {
    await sql`vacuum (analyze) cfdis`;
  } else {
    await sql`insert into subscriptions (user_id, plan, status) values (${userId}, 'PRO', 'ACTIVE')`;
    await seedProfiles(sql, userId, PROFILES);
    await seedCfdis(sql, userId, ROWS, PROFILES, log);
  }
  const profileIds = (
    await sql<{ id: string }[]>`select id from profiles where user_id = ${userId} order by rfc`
  ).map((r) => r.id);
  const [size] = await sql<{ heap: string; idx: string; rows: number }[]>`
    select pg_size_pretty(pg_table_size('cfdis')) as heap, pg_size_pretty(pg_indexes_size('cfdis')) as idx,
      (select count(*)::int from cfdis where user_id = ${userId}) as rows`;
  log(
    `${seeded ? 'reused' : 'seeded'} ${size!.rows.toLocaleString('en')} CFDI over ${profileIds.length} profiles in ${((performance.now() - t0) / 1000).toFixed(0)} s ` +
      `(table ${size!.heap}, indexes ${size!.idx}; shared_buffers ${(await sql`show shared_buffers`)[0]!.shared_buffers})`,
  );

  // Requests: 48 profile × month combinations, and 30 searches (client RFCs, two-surname names
  // typed without accents, UUID fragments), each connection cycling through its list.
  const combos = Array.from({ length: 48 }, (_, i) => ({
    profileId: profileIds[(i * 37) % profileIds.length]!,
    mes: 1 + (i % 12),
    anio: i % 2 ? 2024 : 2025,
  }));
  const rfcs = await sql<{ rfc: string }[]>`
    select distinct rfc_receptor as rfc from cfdis where side = 'income' and tipo <> 'COMPLEMENTO_PAGO'
    order by rfc_receptor limit 10 offset 100`;
  const uuids = await sql<
    { uuid: string }[]
  >`select uuid from cfdis where side = 'income' order by uuid limit 10 offset 500`;
  const names = await sql<{ nombre: string }[]>`
    select distinct nombre_receptor as nombre from cfdis where side = 'income' and tipo <> 'COMPLEMENTO_PAGO'
    order by nombre_receptor limit 10 offset 300`;
  // "Ferretería Hernández López SA de CV" → "hernandez lopez": the two surnames, typed without accents.
  const surnames = (nombre: string) => {
    const rest = nombre.slice(FIRST.find((f) => nombre.startsWith(`${f} `))!.length + 1);
    return rest
      .split(' ')
      .slice(0, 2)
      .join(' ')
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  };
  const terms = [
    ...rfcs.map((r) => r.rfc),
    ...names.map((n) => surnames(n.nombre)),
    ...uuids.map((u) => u.uuid.slice(0, 13)),
  ];
  const filters: Record<'filtered' | 'search', ListFilter[]> = {
    filtered: combos.map((c) => ({ kind: 'filtered', userId, ...c })),
    search: terms.map((search) => ({ kind: 'search', userId, search })),
  };
  const realPath = (f: ListFilter) =>
    f.kind === 'filtered'
      ? `/api/invoices?profileId=${f.profileId}&mes=${f.mes}&a%C3%B1o=${f.anio}`
      : `/api/invoices?search=${encodeURIComponent(f.search)}`;
  const basePath = (f: ListFilter) =>
    f.kind === 'filtered'
      ? `/invoices?profileId=${f.profileId}&mes=${f.mes}&anio=${f.anio}`
      : `/invoices?search=${encodeURIComponent(f.search)}`;

  const baseline = await startBenchScript('invoice-list/baseline.ts', {
    DATABASE_URL: url,
    BENCH_USER_ID: userId,
  });
  children.push(baseline);

  // Both servers answer the same thing (totals and the ids of the first page).
  type Page = { data: { id: string }[]; pagination: { total: number } };
  const totals: Record<string, number[]> = { filtered: [], search: [] };
  for (const kind of ['filtered', 'search'] as const) {
    for (const f of filters[kind]) {
      const a = await api<Page>(folio.url, 'GET', realPath(f), { token });
      const b = await api<Page>(baseline.url, 'GET', basePath(f));
      if (
        a.pagination.total !== b.pagination.total ||
        a.data.map((d) => d.id).join() !== b.data.map((d) => d.id).join()
      )
        throw new Error(`real and baseline disagree on ${realPath(f)}`);
      totals[kind]!.push(a.pagination.total);
    }
  }
  const range = (xs: number[]) =>
    `${Math.min(...xs)}–${Math.max(...xs)} (median ${[...xs].sort((a, b) => a - b)[xs.length >> 1]})`;
  log(
    `\nrequests: ${combos.length} profile+month filters (matching ${range(totals.filtered!)} rows each), ` +
      `${terms.length} searches over the user's ${ROWS.toLocaleString('en')} rows (matching ${range(totals.search!)}); ` +
      `real and baseline return the same totals and first pages`,
  );

  // Every search once, on its own: where the time of the search scenario goes.
  const kindOf = (t: string) =>
    /^[0-9A-F]{8}-/.test(t) ? 'uuid' : /^[A-Z&Ñ]{3,4}\d{6}/.test(t) ? 'rfc' : 'name';
  const timed: { term: string; kind: string; n: number; ms: number }[] = [];
  for (const [i, f] of filters.search.entries()) {
    const q = listQueries(f);
    const t = performance.now();
    await sql.unsafe(q.rows.sql, q.rows.params as never[]);
    timed.push({
      term: terms[i]!,
      kind: kindOf(terms[i]!),
      n: totals.search![i]!,
      ms: performance.now() - t,
    });
  }
  log('\nsearch terms, the page statement (total included) run once each (ms, matching rows):');
  for (const kind of ['rfc', 'name', 'uuid']) {
    const xs = timed.filter((x) => x.kind === kind).sort((a, b) => b.ms - a.ms);
    log(`  ${kind.padEnd(5)} ${xs.map((x) => `${x.term} ${x.ms.toFixed(0)} ms/${x.n}`).join(', ')}`);
  }

  // The plans, once.
  for (const kind of ['filtered', 'search'] as const) {
    const f = kind === 'filtered' ? filters.filtered[0]! : filters.search[10]!;
    const q = listQueries(f);
    for (const [what, stmt] of [
      ['rows', q.rows],
      ['total', q.total],
    ] as const) {
      log(`\nEXPLAIN (ANALYZE, BUFFERS) ${kind} ${what}: ${f.kind === 'search' ? `search=${f.search}` : ''}`);
      await sql.unsafe(inline(stmt)); // warm
      const plan = await sql.unsafe(`explain (analyze, buffers) ${inline(stmt)}`);
      for (const r of plan) log(`  ${Object.values(r)[0]}`);
    }
  }

  const pgData = process.env.PG_TEST_DATA;
  // Not the listing, but this database shows it best: the import's duplicate-UUID check across the
  // user's other profiles (uuidInOtherProfile), run for every imported file.
  const [one] = await sql<{ uuid: string; profile_id: string }[]>`select uuid, profile_id from cfdis limit 1`;
  log(
    '\nEXPLAIN (ANALYZE, BUFFERS) import check uuidInOtherProfile (packages/db/src/queries/cfdis.ts), per imported file:',
  );
  const dup = await sql.unsafe(
    `explain (analyze, buffers) select "id" from "cfdis" where ("cfdis"."user_id" = $1 and "cfdis"."uuid" = $2 and "cfdis"."profile_id" <> $3) limit $4`,
    [userId, one!.uuid, one!.profile_id, 1],
  );
  for (const r of dup) log(`  ${Object.values(r)[0]}`);

  const hammer = async (
    target: Child,
    paths: string[],
    headers: Record<string, string>,
    seconds: number,
    overallRate?: number,
  ) => {
    const [cpu0, pg0] = [cpuMs(target.pid), postgresCpuMs(pgData)];
    const r = await autocannon({
      url: target.url,
      connections: CONNECTIONS,
      duration: seconds,
      timeout: 30,
      ...(overallRate ? { overallRate } : {}),
      requests: paths.map((path) => ({ method: 'GET', path, headers })),
    });
    const [cpu, pg] = [cpuMs(target.pid) - cpu0, postgresCpuMs(pgData) - pg0];
    return {
      cpu: cpu / r.requests.total,
      pgCpu: pg / r.requests.total,
      rps: r.requests.total / seconds,
      p50: r.latency.p50,
      p99: r.latency.p99,
      max: r.latency.max,
      n: r.requests.total,
      bad: r.non2xx + r.errors + r.timeouts,
    };
  };
  type Result = Awaited<ReturnType<typeof hammer>>;
  const results: Partial<
    Record<'filtered' | 'search', { real: Result; base: Result; paced: Result; ratio: number }>
  > = {};
  // A shared VM's speed drifts from one quarter-minute to the next (docs/benchmarks.md: the same
  // baseline run back to back), so one run of each would compare two different machines.
  // Instead ROUNDS pairs of shorter runs, alternating which server goes first; the ratio is the median
  // of the pairs' ratios, and each server's figures are those of its median run.
  const rounds = Math.max(1, ROUNDS);
  let bad = 0;
  const slice = Math.max(2, Math.round(DURATION / rounds));
  log(
    `\nload: autocannon, ${CONNECTIONS} connections, ${WARMUP} s warm-up each, then ${rounds} pairs of ${slice} s runs ` +
      '(Folio and baseline, alternating which goes first), then Folio paced for half that time',
  );
  const median = <T>(xs: T[], key: (x: T) => number) =>
    [...xs].sort((a, b) => key(a) - key(b))[xs.length >> 1]!;
  for (const kind of PARTS) {
    const auth = { authorization: `Bearer ${token}` };
    const realPaths = filters[kind].map(realPath);
    const basePaths = filters[kind].map(basePath);
    const runReal = (seconds: number) => hammer(folio, realPaths, auth, seconds);
    const runBase = (seconds: number) => hammer(baseline, basePaths, {}, seconds);
    await runReal(WARMUP);
    await runBase(WARMUP);
    const pairs: { real: Result; base: Result; ratio: number }[] = [];
    for (let r = 0; r < rounds; r++) {
      const first = r % 2 ? await runBase(slice) : await runReal(slice);
      const second = r % 2 ? await runReal(slice) : await runBase(slice);
      const pair = r % 2 ? { real: second, base: first } : { real: first, base: second };
      pairs.push({ ...pair, ratio: pair.real.rps / pair.base.rps });
    }
    const row = (name: string, r: Result, l: string) =>
      log(
        `  ${name.padEnd(30)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  ` +
          `max ${String(r.max).padStart(5)} ms  CPU/request: server ${r.cpu.toFixed(2)} ms, PostgreSQL ${r.pgCpu.toFixed(2)} ms  ` +
          `(${r.n} requests, ${r.bad} errors/non-2xx; load ${l})`,
      );
    log(`${kind}:`);
    for (const [i, p] of pairs.entries()) {
      log(
        `  pair ${i + 1}: Folio ${p.real.rps.toFixed(0)} req/s (server ${p.real.cpu.toFixed(2)} + PostgreSQL ${p.real.pgCpu.toFixed(2)} ms CPU), ` +
          `baseline ${p.base.rps.toFixed(0)} req/s (${p.base.cpu.toFixed(2)} + ${p.base.pgCpu.toFixed(2)} ms): ratio ${p.ratio.toFixed(2)}`,
      );
    }
    const real = median(
      pairs.map((p) => p.real),
      (r) => r.rps,
    );
    const base = median(
      pairs.map((p) => p.base),
      (r) => r.rps,
    );
    const ratio = median(pairs, (p) => p.ratio).ratio;
    row('Folio GET /api/invoices (median)', real, load());
    row('baseline (median)', base, load());
    log(`  throughput ratio Folio/baseline, median of the pairs: ${ratio.toFixed(2)}`);
    // With 10 connections always busy, latency is mostly queueing (≈ connections / throughput). The
    // same requests paced at half the saturated rate show the latency of a request that does not wait.
    const rate = Math.max(1, Math.floor(real.rps / 2));
    const paced = await hammer(folio, realPaths, auth, Math.max(slice, Math.round(DURATION / 2)), rate);
    row(`Folio paced at ${rate} req/s`, paced, load());
    results[kind] = { real, base, paced, ratio };
    bad += paced.bad + pairs.reduce((n, p) => n + p.real.bad + p.base.bad, 0);
  }

  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  log('\ntargets:');
  const { filtered, search } = results;
  if (filtered) {
    const { ratio } = filtered;
    log(
      `  filtered throughput ≥ ${TARGET.filteredRatio * 100} % of baseline: ${verdict(ratio >= TARGET.filteredRatio)} (${(100 * ratio).toFixed(0)} %)`,
    );
    log(
      `  filtered p99 paced ≤ ${TARGET.filteredPacedP99} ms: ${verdict(filtered.paced.p99 <= TARGET.filteredPacedP99)} (${filtered.paced.p99} ms)`,
    );
  }
  if (search) {
    log(
      `  search p99 ≤ ${TARGET.searchP99} ms: ${verdict(search.real.p99 <= TARGET.searchP99)} (${search.real.p99} ms)`,
    );
    log(
      `  search PostgreSQL CPU ≤ ${TARGET.searchPgCpu} ms/request: ${verdict(search.real.pgCpu <= TARGET.searchPgCpu)} (${search.real.pgCpu.toFixed(2)} ms)`,
    );
  }
  if (bad > 0) process.exitCode = 1;
} finally {
  for (const c of children.reverse()) await c.stop();
  await sql.end();
  log(`load average at the end ${load()}`);
}
if (CPU_PROF) printCpuProfile(CPU_PROF, 'Folio server CPU profile (seeding, checks and all load runs)');
