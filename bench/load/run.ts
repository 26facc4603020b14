// bench/load: a mixed workload against the real server on PostgreSQL with the full SAT catalog and
// 1,000,000 invoices, in a day's proportions — 68 % invoice list, 10 % expense list, 10 % SAT search,
// 5 % subscription, 5 % single-XML imports, and 2 % together of the heavier requests (month exports
// as xlsx and csv, a CFDI's PDF, the monthly and annual reports, searches by meaning) — over
// keep-alive HTTP on loopback, in three bounded runs:
//   1. offered load: requests arrive at a fixed RATE (open loop, as users do: nobody waits for
//      someone else's answer), latency measured from the moment each was due, so a stalled server
//      cannot hide its queue (no coordinated omission). The targets are judged here.
//   2. capacity: CONNECTIONS clients each sending the next request as soon as the last answers;
//      the most the machine serves (latency there is only CONNECTIONS / throughput).
//   3. saturation point: open-loop steps of STEP_S seconds from half that capacity up, a tenth of it
//      more each step, until one breaks the targets (an error, or a read p99 over 50 ms); the
//      saturation point is the last offered rate that held (docs/benchmarks.md, "Load").
// Prints req/s, p50/p95/p99 and errors (by status) per kind, and the server's RSS (peak while
// serving and at the end), and the main thread's V8 heap and external memory peaks in run 1. Run
// under scripts/with-postgres.sh; env ROWS, RATE, CONNECTIONS, WARM_S, WARMUP_S, DURATION_S, STEP_S (0 skips
// run 3), CPU_PROF, HEAVY (which of the heavier kinds to send: what each costs the reads).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import { BUNDLED_SAT_CATALOG } from '@folio/db';
import postgres from 'postgres';
import { seedCfdis, seedProfiles } from '../invoice-list/seed';
import { printCpuProfile } from '../lib/cpuprofile';
import { type Child, MEMORY_PEAKS, memoryPeaks, rawRequest, signIn, startFolio } from '../lib/server';
import { machine, summarize } from '../lib/stats';

const url = process.env.TEST_DATABASE_URL;
if (!url) throw new Error('run under scripts/with-postgres.sh (TEST_DATABASE_URL)');
/** The catalog shipped in packages/db/data unless SAT_CATALOG_CSV names another file. */
const CSV = process.env.SAT_CATALOG_CSV || BUNDLED_SAT_CATALOG;
const ROWS = Number(process.env.ROWS ?? 1_000_000);
const PROFILES = 100;
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
/** Offered load of the first run, requests per second. */
const RATE = Number(process.env.RATE ?? 300);
const WARMUP_S = Number(process.env.WARMUP_S ?? 5);
/** Seconds of closed-loop requests before run 1 (0: run 1 meets a server whose code is still cold). */
const WARM_S = Number(process.env.WARM_S ?? 15);
const DURATION_S = Number(process.env.DURATION_S ?? 30);
/** Seconds of each step of the saturation search (after a warm-up of a fifth of it). */
const STEP_S = Number(process.env.STEP_S ?? 15);
/** The targets at RATE (issue 30): no error, and every interactive read's p99 within this. */
const READ_P99_MS = 50;
const RSS_MB = 250;
/** A directory: profile the real server's CPU (node --cpu-prof) and print a summary at the end. */
const CPU_PROF = process.env.CPU_PROF;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const log = (s: string) => console.log(s);

type Kind =
  | 'invoice list'
  | 'expense list'
  | 'SAT search'
  | 'subscription'
  | 'import'
  | 'export xlsx'
  | 'export csv'
  | 'PDF'
  | 'monthly report'
  | 'annual report'
  | 'meaning search';
/** Per cent of requests: what a day of users does, the heavier requests 2 % together. */
/** The heavier kinds: a file of a month, a CFDI's PDF, a report, a search by meaning. */
const HEAVY_KINDS: Kind[] = [
  'export xlsx',
  'export csv',
  'PDF',
  'monthly report',
  'annual report',
  'meaning search',
];
const FULL_MIX: [Kind, number][] = [
  ['invoice list', 68],
  ['expense list', 10],
  ['SAT search', 10],
  ['subscription', 5],
  ['import', 5],
  ['export xlsx', 0.4],
  ['export csv', 0.3],
  ['PDF', 0.5],
  ['monthly report', 0.3],
  ['annual report', 0.1],
  ['meaning search', 0.4],
];
/**
 * HEAVY=0 leaves the heavier 2 % out, HEAVY='PDF,annual report' keeps only those of them (the
 * interactive kinds keep their shares): what each costs the reads.
 */
const HEAVY = process.env.HEAVY === undefined ? HEAVY_KINDS : process.env.HEAVY.split(',');
const MIX = FULL_MIX.filter(([k]) => !HEAVY_KINDS.includes(k) || HEAVY.includes(k));
/**
 * The interactive reads the p99 target is about; the heavier kinds (a file of a month, a year's
 * report) have their own benchmarks and targets, and here count only by their errors.
 */
const READS: Kind[] = ['invoice list', 'expense list', 'SAT search', 'subscription'];
const SEARCHES = [
  'computadora',
  'gasolina',
  'servicios contables',
  'papeleria',
  'hotel',
  'agua embotellada',
  'laptop',
  'cemento',
];
const MEANINGS = [
  'renta de un depa',
  'le vendo pasteles a una cafetería',
  'reparación de aire acondicionado',
  'clases de inglés',
  'flete de mudanza',
  'consulta con el dentista',
];
/** An HTTP status, or the error code of a request that got no answer. */
type Answer = number | string;
const any = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

/**
 * The next kind, by smooth weighted round-robin: every window of 1,000 requests holds each kind in
 * its exact share, so two runs carry the same heavy requests (a random draw put 38 monthly reports in
 * one 30-s run and 21 in the next, and the tail followed them).
 */
const credit = new Map<Kind, number>(MIX.map(([k]) => [k, 0]));
const totalWeight = MIX.reduce((s, [, w]) => s + w, 0);
function pick(): Kind {
  let best: Kind = MIX[0]![0];
  for (const [kind, weight] of MIX) {
    credit.set(kind, credit.get(kind)! + weight);
    if (credit.get(kind)! > credit.get(best)!) best = kind;
  }
  credit.set(best, credit.get(best)! - totalWeight);
  return best;
}

/** Resident set of a process now (VmRSS) and at its peak (VmHWM), in MB. */
function rssMb(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/**
 * Starts a new peak (Linux: writing 5 to clear_refs resets VmHWM to the current RSS), so the peak
 * reported is the one while serving, not the start-up's (which loads the whole SAT catalog).
 */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * The seed leaves gigabytes of dirty pages (PostgreSQL's buffers, then the kernel's page cache) that
 * the kernel writes back about 30 s later: in run 1, while the server is measured, as bursts of
 * writes that stall PostgreSQL's own (vmstat: 500 MB in a second). A checkpoint and a sync first,
 * so the runs measure the server and not the seed's write-back.
 */
async function settleSeedWrites(sql: postgres.Sql): Promise<void> {
  const dirtyMb = () =>
    Number(/Dirty:\s+(\d+) kB/.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) / 1024;
  const t0 = performance.now();
  const before = dirtyMb();
  await sql`checkpoint`;
  execFileSync('sync');
  log(
    `seed's writes settled (checkpoint, sync): ${before.toFixed(0)} MB of dirty pages before, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

if (!existsSync(CSV)) throw new Error(`SAT catalog CSV not found at ${CSV}; set SAT_CATALOG_CSV`);
log(`bench/load on ${machine()}; load average ${load()}`);
const sql = postgres(url, { max: 2, onnotice: () => {} });
let folio: Child | undefined;
try {
  folio = await startFolio({ DATABASE_URL: url, TRUST_PROXY: 'true', SAT_CATALOG_CSV: CSV }, [
    ...MEMORY_PEAKS,
    ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []),
  ]);
  const { token, userId } = await signIn(folio.url, `load-${Date.now()}@example.com`, '10.9.2.1');
  // ENTERPRISE: PRO with unlimited searches by meaning (PRO's 500 a month would run out mid-run).
  await sql`insert into subscriptions (user_id, plan, status) values (${userId}, 'ENTERPRISE', 'ACTIVE')`;
  const t0 = performance.now();
  const profileIds = await seedProfiles(sql, userId, PROFILES);
  await seedCfdis(sql, userId, ROWS, PROFILES, () => {});
  const [catalog] = await sql<{ n: number }[]>`select count(*)::int as n from sat_products`;
  log(
    `seeded ${ROWS.toLocaleString('en')} CFDI over ${PROFILES} profiles in ${((performance.now() - t0) / 1000).toFixed(0)} s; catalog ${catalog!.n} codes`,
  );
  await settleSeedWrites(sql);
  const startup = rssMb(folio.pid);
  const servingPeakOnly = resetPeakRss(folio.pid);
  log(
    `server RSS after start-up (catalog loaded), seeding and a login: ${startup.now.toFixed(0)} MB, peak so far ${startup.peak.toFixed(0)} MB${servingPeakOnly ? '; peak reset: the peaks below are while serving' : ' (could not reset the peak: the peaks below include start-up)'}`,
  );
  const [importer] = await sql<
    { id: string; rfc: string }[]
  >`select id, rfc from profiles where id = ${profileIds[0]!}`;

  const headers = { authorization: `Bearer ${token}` };
  // node:http with keep-alive: far less client CPU than fetch, which shares the two cores too.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  /** The answer's status, or why there was none (the socket error's code, as `ECONNRESET`). */
  const send = (method: string, path: string, body?: string): Promise<Answer> =>
    new Promise((resolve) => {
      const req = http.request(
        `${folio!.url}${path}`,
        {
          method,
          agent,
          headers: body ? { ...headers, 'content-type': 'application/xml' } : headers,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 'no status'));
          res.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'no answer'));
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'no answer'));
      req.end(body);
    });
  const importXml = (conceptos?: { descripcion: string; importe: number }[]) =>
    invoiceXml({
      uuid: newUuid(),
      emisor: { rfc: importer!.rfc, nombre: 'Contribuyente', regimen: '601' },
      receptor: { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' },
      fecha: '2025-06-15T10:00:00',
      conceptos,
    });
  // The CFDI the PDFs draw: one of 20 concepts, as the export bench prints.
  const printed = await rawRequest(
    `${folio.url}/api/profiles/${importer!.id}/cfdi`,
    'POST',
    { ...headers, 'content-type': 'application/xml', 'x-forwarded-for': '10.9.2.1' },
    Buffer.from(
      importXml(
        Array.from({ length: 20 }, (_, i) => ({
          descripcion: `Servicio de consultoría ${i + 1}: diseño, instalación y puesta en marcha`,
          importe: 1_000 + i * 37.5,
        })),
      ),
    ),
  );
  if (printed.status !== 201) throw new Error(`upload for the PDFs: ${printed.status} ${printed.text}`);
  const pdfId = (JSON.parse(printed.text) as { data: { files: { id: string }[] } }).data.files[0]!.id;

  const request = (kind: Kind): Promise<Answer> => {
    const p = any(profileIds);
    const mes = 1 + Math.floor(Math.random() * 12);
    const month = `profileId=${p}&mes=${mes}&a%C3%B1o=2025`;
    switch (kind) {
      case 'invoice list':
        return send('GET', `/api/invoices?${month}`);
      case 'expense list':
        return send('GET', `/api/expenses?${month}`);
      case 'SAT search':
        return send('GET', `/api/sat/search?query=${encodeURIComponent(any(SEARCHES))}`);
      case 'subscription':
        return send('GET', '/api/subscription');
      case 'import':
        return send('POST', `/api/profiles/${importer!.id}/cfdi`, importXml());
      case 'export xlsx':
        return send('GET', `/api/invoices/export?${month}&format=xlsx`);
      case 'export csv':
        return send('GET', `/api/invoices/export?${month}&format=csv`);
      case 'PDF':
        return send('GET', `/api/invoices/${pdfId}/pdf`);
      case 'monthly report':
        return send('GET', `/api/reports/monthly?${month}`);
      case 'annual report':
        return send('GET', `/api/reports/annual?profileId=${p}&a%C3%B1o=2025`);
      case 'meaning search':
        return send('GET', `/api/sat/ai-search?query=${encodeURIComponent(any(MEANINGS))}`);
    }
  };

  /** Latencies and failures (by status, or the error of a request that got no answer) per kind of one run. */
  const newRun = (seconds: number) => ({
    seconds,
    samples: new Map<Kind, number[]>(MIX.map(([k]) => [k, []])),
    errors: new Map<Kind, Map<Answer, number>>(),
  });
  type Run = ReturnType<typeof newRun>;
  const measure = async (run: Run, kind: Kind, due: number, counted: boolean) => {
    const status = await request(kind);
    if (!counted) return;
    if (typeof status === 'string' || status >= 400) {
      const byStatus = run.errors.get(kind) ?? new Map<Answer, number>();
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      run.errors.set(kind, byStatus);
    }
    run.samples.get(kind)!.push(performance.now() - due);
  };
  /** A kind's failures by status, as `503×2` or `ECONNRESET×1`. */
  const statusesOf = (run: Run, kind: Kind) =>
    [...(run.errors.get(kind) ?? [])].map(([st, c]) => `${st}×${c}`);
  const errorsOf = (run: Run, kind: Kind) =>
    [...(run.errors.get(kind)?.values() ?? [])].reduce((a, b) => a + b, 0);
  /** Throughput, total errors and the worst interactive read p99 of a run. */
  const verdictOf = (run: Run) => {
    let n = 0;
    let errorCount = 0;
    let worstReadP99 = 0;
    for (const [kind] of MIX) {
      const s = summarize(run.samples.get(kind)!);
      n += s.n;
      errorCount += errorsOf(run, kind);
      if (READS.includes(kind) && s.n) worstReadP99 = Math.max(worstReadP99, s.p99);
    }
    return {
      rate: n / run.seconds,
      errorCount,
      worstReadP99,
      held: errorCount === 0 && worstReadP99 <= READ_P99_MS,
    };
  };

  const report = (title: string, run: Run) => {
    log(`\n${title}`);
    log(
      `${'kind'.padEnd(15)} ${'req/s'.padStart(7)} ${'n'.padStart(6)} ${'p50'.padStart(10)} ${'p95'.padStart(10)} ${'p99'.padStart(10)}  errors`,
    );
    for (const [kind] of MIX) {
      const s = summarize(run.samples.get(kind)!);
      const byStatus = statusesOf(run, kind);
      const ms = (v: number) => (s.n ? `${v.toFixed(1)} ms` : '–').padStart(10);
      log(
        `${kind.padEnd(15)} ${(s.n / run.seconds).toFixed(1).padStart(7)} ${String(s.n).padStart(6)} ${ms(s.p50)} ${ms(s.p95)} ${ms(s.p99)}  ${errorsOf(run, kind)}${byStatus.length ? ` (${byStatus.join(', ')})` : ''}`,
      );
    }
    const v = verdictOf(run);
    const rss = rssMb(folio!.pid);
    log(
      `total ${v.rate.toFixed(1)} req/s, ${v.errorCount} errors, worst read p99 ${v.worstReadP99.toFixed(1)} ms; server RSS ${rss.now.toFixed(0)} MB (peak ${rss.peak.toFixed(0)} MB); load average ${load()}`,
    );
    return { ...v, rss };
  };

  /** Open loop: one arrival every 1/rate s whatever the server is doing; the warm-up is not counted. */
  const openLoop = async (rate: number, warmupS: number, seconds: number): Promise<Run> => {
    const run = newRun(seconds);
    const start = performance.now();
    const interval = 1000 / rate;
    const arrivals = Math.round((warmupS + seconds) * rate);
    const inFlight = new Set<Promise<void>>();
    for (let i = 0; i < arrivals; i++) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const p = measure(run, pick(), due, i >= warmupS * rate).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
    return run;
  };

  /** Closed loop: CONNECTIONS clients, each sending its next request as soon as the last answers. */
  const closedLoop = async (warmupS: number, seconds: number): Promise<Run> => {
    const run = newRun(seconds);
    const start = performance.now();
    const client = async () => {
      for (let now = start; now < start + (warmupS + seconds) * 1000; now = performance.now())
        await measure(run, pick(), now, now >= start + warmupS * 1000);
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, client));
    return run;
  };

  // Each kind once before the clock, timed: what a kind does only on its first use (the search by
  // meaning's model, which this fresh cluster's catalog import made stale, so the first search builds
  // it, seconds on the main thread; the PDF workers; the xlsx writer) is start-up, printed here, not
  // the steady state the runs measure. Unwarmed, the build stalled run 1 for seconds and every
  // kind's p99 with it.
  const firsts: string[] = [];
  for (const [kind] of MIX) {
    const t1 = performance.now();
    const status = await request(kind);
    if (typeof status === 'string' || status >= 400) throw new Error(`first ${kind}: ${status}`);
    firsts.push(`${kind} ${(performance.now() - t1).toFixed(0)} ms`);
  }
  log(`first request of each kind (start-up work, not measured): ${firsts.join(', ')}`);

  // A freshly started server's code is not optimised yet: offered RATE at once, it queued for its
  // first 15 s and run 1 measured that queue draining (docs/benchmarks.md, "Load", round 9). So
  // WARM_S seconds of the closed loop first, not measured; their throughput is printed.
  if (WARM_S > 0) {
    const warm = verdictOf(await closedLoop(0, WARM_S));
    log(`warm-up: ${CONNECTIONS} clients back to back for ${WARM_S} s, ${warm.rate.toFixed(0)} req/s`);
  }

  // 1. Offered load at RATE: the targets.
  log(
    `\nrun 1: ${RATE} req/s offered, ${WARMUP_S} s warm-up, ${DURATION_S} s measured; load average ${load()}`,
  );
  await memoryPeaks(folio); // the main thread's peaks start here
  const atRate = report(
    `run 1 — ${RATE} req/s offered (open loop):`,
    await openLoop(RATE, WARMUP_S, DURATION_S),
  );
  {
    // What of the RSS is the main thread's V8 heap and external memory; the rest is code, the worker
    // threads' heaps and the allocator's.
    const { peak, spaces, loopDelayMs } = await memoryPeaks(folio);
    const bySpace = Object.entries(spaces)
      .filter(([, mb]) => mb > 0)
      .map(([space, mb]) => `${space.replace(/_space$/, '')} ${mb}`)
      .join(', ');
    log(
      `main thread during run 1, peaks: V8 heap ${peak.heapTotal} MB reserved (${peak.heapUsed} MB used; by space, MB: ${bySpace}), external ${peak.external} MB (array buffers ${peak.arrayBuffers} MB), RSS ${peak.rss} MB; event loop delay p99 ${loopDelayMs.p99} ms, longest ${loopDelayMs.max} ms`,
    );
  }

  // 2. Capacity: CONNECTIONS clients, each waiting for its answer before the next request.
  log(`\nrun 2: ${CONNECTIONS} clients back to back, ${WARMUP_S} s warm-up, ${DURATION_S} s measured`);
  const capacity = report(
    `run 2 — capacity, ${CONNECTIONS} clients (closed loop):`,
    await closedLoop(WARMUP_S, DURATION_S),
  );

  // 3. The saturation point: the highest offered rate that still meets the targets, stepping up by a
  // tenth of the capacity from half of it; the first step that breaks them ends the search.
  let saturation: { rate: number; below?: boolean } | undefined;
  if (STEP_S > 0) {
    const step = Math.max(1, Math.round(capacity.rate / 10));
    log(
      `\nrun 3: saturation point, open-loop steps of ${STEP_S} s (+${(STEP_S / 5).toFixed(0)} s warm-up) from ${5 * step} req/s by ${step}; a step holds with no error and read p99 ≤ ${READ_P99_MS} ms`,
    );
    log(
      `${'offered'.padStart(8)} ${'served'.padStart(8)} ${'read p99'.padStart(10)} ${'errors'.padStart(7)}  RSS`,
    );
    for (let rate = 5 * step; rate <= 15 * step; rate += step) {
      const stepRun = await openLoop(rate, STEP_S / 5, STEP_S);
      const v = verdictOf(stepRun);
      const failed = MIX.flatMap(([kind]) => statusesOf(stepRun, kind).map((e) => `${kind} ${e}`));
      log(
        `${String(rate).padStart(8)} ${v.rate.toFixed(1).padStart(8)} ${`${v.worstReadP99.toFixed(1)} ms`.padStart(10)} ${String(v.errorCount).padStart(7)}  ${rssMb(folio.pid).now.toFixed(0)} MB  ${v.held ? 'held' : 'BROKE'}${failed.length ? ` (${failed.join(', ')})` : ''}`,
      );
      if (!v.held) {
        saturation ??= { rate, below: true };
        break;
      }
      saturation = { rate };
    }
  }
  agent.destroy();

  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const peak = rssMb(folio.pid).peak;
  log(
    `\ntargets at ${RATE} req/s offered: zero errors ${verdict(atRate.errorCount === 0)} (${atRate.errorCount}); read p99 ≤ ${READ_P99_MS} ms ${verdict(atRate.worstReadP99 <= READ_P99_MS)} (worst ${atRate.worstReadP99.toFixed(1)} ms); peak RSS while serving ≤ ${RSS_MB} MB ${verdict(peak <= RSS_MB)} (${peak.toFixed(0)} MB)`,
  );
  log(
    `capacity (closed loop, ${CONNECTIONS} clients): ${capacity.rate.toFixed(0)} req/s, ${capacity.errorCount} errors; ` +
      (saturation === undefined
        ? 'saturation point not searched (STEP_S=0)'
        : saturation.below
          ? `saturation point below ${saturation.rate} req/s (the first step broke)`
          : `saturation point ${saturation.rate} req/s offered (the next step broke, or the search stopped at 1.5× capacity)`),
  );
} finally {
  await folio?.stop();
  await sql.end({ timeout: 5 });
}
if (CPU_PROF) printCpuProfile(CPU_PROF, 'Folio server CPU profile (start-up, seeding and the load run)');
