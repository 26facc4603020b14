// bench/load: a mixed workload against the real server on PostgreSQL with the full SAT catalog and
// 1,000,000 invoices — 70 % invoice list, 10 % expense list, 10 % SAT search, 5 % subscription,
// 5 % single-XML imports — over keep-alive HTTP on loopback, in two bounded runs:
//   1. offered load: requests arrive at a fixed RATE (open loop, as users do: nobody waits for
//      someone else's answer), latency measured from the moment each was due, so a stalled server
//      cannot hide its queue (no coordinated omission). The targets are judged here.
//   2. saturation: CONNECTIONS clients each sending the next request as soon as the last answers;
//      shows the most the machine serves, where latency is only CONNECTIONS / throughput.
// Prints req/s, p50/p95/p99 per route, errors, and the server's RSS (peak and at the end).
// Run under scripts/with-postgres.sh; env ROWS, RATE, CONNECTIONS, WARMUP_S, DURATION_S, CPU_PROF.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import { BUNDLED_SAT_CATALOG } from '@folio/db';
import postgres from 'postgres';
import { seedCfdis, seedProfiles } from '../invoice-list/seed';
import { printCpuProfile } from '../lib/cpuprofile';
import { type Child, signIn, startFolio } from '../lib/server';
import { machine, summarize } from '../lib/stats';

const url = process.env.TEST_DATABASE_URL;
if (!url) throw new Error('run under scripts/with-postgres.sh (TEST_DATABASE_URL)');
/** The catalog shipped in packages/db/data unless SAT_CATALOG_CSV names another file. */
const CSV = process.env.SAT_CATALOG_CSV || BUNDLED_SAT_CATALOG;
const ROWS = Number(process.env.ROWS ?? 1_000_000);
const PROFILES = 100;
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
/** Offered load of the first run, requests per second. */
const RATE = Number(process.env.RATE ?? 150);
const WARMUP_S = Number(process.env.WARMUP_S ?? 5);
const DURATION_S = Number(process.env.DURATION_S ?? 30);
/** A directory: profile the real server's CPU (node --cpu-prof) and print a summary at the end. */
const CPU_PROF = process.env.CPU_PROF;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const log = (s: string) => console.log(s);

type Route = 'invoice list' | 'expense list' | 'SAT search' | 'subscription' | 'import';
const MIX: [Route, number][] = [
  ['invoice list', 70],
  ['expense list', 10],
  ['SAT search', 10],
  ['subscription', 5],
  ['import', 5],
];
const READS: Route[] = ['invoice list', 'expense list', 'SAT search', 'subscription'];
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

function pick(): Route {
  let r = Math.random() * 100;
  for (const [route, weight] of MIX) {
    r -= weight;
    if (r < 0) return route;
  }
  return 'invoice list';
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

if (!existsSync(CSV)) throw new Error(`SAT catalog CSV not found at ${CSV}; set SAT_CATALOG_CSV`);
log(`bench/load on ${machine()}; load average ${load()}`);
const sql = postgres(url, { max: 2, onnotice: () => {} });
let folio: Child | undefined;
try {
  folio = await startFolio(
    { DATABASE_URL: url, TRUST_PROXY: 'true', SAT_CATALOG_CSV: CSV },
    CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [],
  );
  const { token, userId } = await signIn(folio.url, `load-${Date.now()}@example.com`, '10.9.2.1');
  await sql`insert into subscriptions (user_id, plan, status) values (${userId}, 'PRO', 'ACTIVE')`;
  const t0 = performance.now();
  const profileIds = await seedProfiles(sql, userId, PROFILES);
  await seedCfdis(sql, userId, ROWS, PROFILES, () => {});
  const [catalog] = await sql<{ n: number }[]>`select count(*)::int as n from sat_products`;
  log(
    `seeded ${ROWS.toLocaleString('en')} CFDI over ${PROFILES} profiles in ${((performance.now() - t0) / 1000).toFixed(0)} s; catalog ${catalog!.n} codes`,
  );
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
  const send = (method: string, path: string, body?: string): Promise<number> =>
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
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', () => resolve(0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(body);
    });
  const request = (route: Route): Promise<number> => {
    const p = profileIds[Math.floor(Math.random() * profileIds.length)]!;
    const mes = 1 + Math.floor(Math.random() * 12);
    switch (route) {
      case 'invoice list':
        return send('GET', `/api/invoices?profileId=${p}&mes=${mes}&a%C3%B1o=2025`);
      case 'expense list':
        return send('GET', `/api/expenses?profileId=${p}&mes=${mes}&a%C3%B1o=2025`);
      case 'SAT search':
        return send(
          'GET',
          `/api/sat/search?query=${encodeURIComponent(SEARCHES[Math.floor(Math.random() * SEARCHES.length)]!)}`,
        );
      case 'subscription':
        return send('GET', '/api/subscription');
      case 'import':
        return send(
          'POST',
          `/api/profiles/${importer!.id}/cfdi`,
          invoiceXml({
            uuid: newUuid(),
            emisor: { rfc: importer!.rfc, nombre: 'Contribuyente', regimen: '601' },
            receptor: { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' },
            fecha: '2025-06-15T10:00:00',
          }),
        );
    }
  };

  /** Samples and errors per route of one run; `due` is when the request should have started. */
  const newRun = () => ({
    samples: new Map<Route, number[]>(MIX.map(([r]) => [r, []])),
    errors: new Map<Route, number>(),
  });
  type Run = ReturnType<typeof newRun>;
  const measure = async (run: Run, route: Route, due: number, counted: boolean) => {
    const status = await request(route);
    if (!counted) return;
    if (status === 0 || status >= 400) run.errors.set(route, (run.errors.get(route) ?? 0) + 1);
    run.samples.get(route)!.push(performance.now() - due);
  };

  const report = (title: string, run: Run) => {
    let total = 0;
    let errorCount = 0;
    let worstReadP99 = 0;
    log(`\n${title}`);
    log(
      `${'route'.padEnd(14)} ${'req/s'.padStart(8)} ${'p50'.padStart(9)} ${'p95'.padStart(9)} ${'p99'.padStart(9)} ${'errors'.padStart(7)}`,
    );
    for (const [route] of MIX) {
      const s = summarize(run.samples.get(route)!);
      total += s.n;
      errorCount += run.errors.get(route) ?? 0;
      if (READS.includes(route)) worstReadP99 = Math.max(worstReadP99, s.p99);
      log(
        `${route.padEnd(14)} ${(s.n / DURATION_S).toFixed(1).padStart(8)} ${`${s.p50.toFixed(1)} ms`.padStart(9)} ${`${s.p95.toFixed(1)} ms`.padStart(9)} ${`${s.p99.toFixed(1)} ms`.padStart(9)} ${String(run.errors.get(route) ?? 0).padStart(7)}`,
      );
    }
    const rss = rssMb(folio!.pid);
    log(
      `total ${(total / DURATION_S).toFixed(1)} req/s, ${errorCount} errors, server RSS ${rss.now.toFixed(0)} MB (peak ${rss.peak.toFixed(0)} MB); load average ${load()}`,
    );
    return { errorCount, worstReadP99, rss };
  };

  // 1. Offered load: one arrival every 1/RATE s, whatever the server is doing.
  const offered = newRun();
  {
    const start = performance.now();
    const interval = 1000 / RATE;
    const arrivals = Math.round((WARMUP_S + DURATION_S) * RATE);
    const inFlight = new Set<Promise<void>>();
    log(
      `\nrun 1: ${RATE} req/s offered, ${WARMUP_S} s warm-up, ${DURATION_S} s measured; load average ${load()}`,
    );
    for (let i = 0; i < arrivals; i++) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const p = measure(offered, pick(), due, i >= WARMUP_S * RATE).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
  }
  const atRate = report(`run 1 — ${RATE} req/s offered (open loop):`, offered);

  // 2. Saturation: CONNECTIONS clients, each waiting for its answer before the next request.
  const saturated = newRun();
  {
    let counted = false;
    const deadline = performance.now() + (WARMUP_S + DURATION_S) * 1000;
    setTimeout(() => {
      counted = true;
    }, WARMUP_S * 1000);
    const client = async () => {
      while (performance.now() < deadline) await measure(saturated, pick(), performance.now(), counted);
    };
    log(`\nrun 2: ${CONNECTIONS} clients back to back, ${WARMUP_S} s warm-up, ${DURATION_S} s measured`);
    await Promise.all(Array.from({ length: CONNECTIONS }, client));
  }
  const atSaturation = report(`run 2 — saturation, ${CONNECTIONS} clients (closed loop):`, saturated);
  agent.destroy();

  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const { peak } = atSaturation.rss;
  log(
    `\ntargets at ${RATE} req/s offered: zero errors ${verdict(atRate.errorCount === 0)}; p99 ≤ 50 ms for reads ${verdict(atRate.worstReadP99 <= 50)} (worst ${atRate.worstReadP99.toFixed(1)} ms); peak RSS ≤ 300 MB ${verdict(peak <= 300)} (${peak.toFixed(0)} MB)`,
  );
  log(
    `at saturation: zero errors ${verdict(atSaturation.errorCount === 0)}; worst read p99 ${atSaturation.worstReadP99.toFixed(1)} ms`,
  );
} finally {
  await folio?.stop();
  await sql.end({ timeout: 5 });
}
if (CPU_PROF) printCpuProfile(CPU_PROF, 'Folio server CPU profile (start-up, seeding and the load run)');
