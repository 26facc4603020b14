// bench/load: a mixed workload against the real server on PostgreSQL with the full SAT catalog and
// 1,000,000 invoices — 70 % invoice list, 10 % expense list, 10 % SAT search, 5 % subscription,
// 5 % single-XML imports — from 10 concurrent clients on loopback for a bounded time. Prints req/s,
// p50/p95/p99 per route, errors and the server's peak RSS. Run under scripts/with-postgres.sh.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import postgres from 'postgres';
import { seedCfdis, seedProfiles } from '../invoice-list/seed';
import { api, type Child, startFolio } from '../lib/server';
import { machine, summarize } from '../lib/stats';

const url = process.env.TEST_DATABASE_URL;
if (!url) throw new Error('run under scripts/with-postgres.sh (TEST_DATABASE_URL)');
const CSV =
  process.env.SAT_CATALOG_CSV ??
  new URL('../../../shared/data/sat/c_claveprodserv.csv', import.meta.url).pathname;
const ROWS = Number(process.env.ROWS ?? 1_000_000);
const PROFILES = 100;
const CONNECTIONS = 10;
const WARMUP_S = Number(process.env.WARMUP_S ?? 5);
const DURATION_S = Number(process.env.DURATION_S ?? 30);
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

/** Peak resident set of a process (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

if (!existsSync(CSV)) throw new Error(`SAT catalog CSV not found at ${CSV}; set SAT_CATALOG_CSV`);
log(`bench/load on ${machine()}; load average ${load()}`);
const sql = postgres(url, { max: 2, onnotice: () => {} });
let folio: Child | undefined;
try {
  folio = await startFolio({ DATABASE_URL: url, TRUST_PROXY: 'true', SAT_CATALOG_CSV: CSV }, []);
  const email = `load-${Date.now()}@example.com`;
  const password = 'load password 1';
  await api(folio.url, 'POST', '/api/auth/register', { body: { email, password }, ip: '10.9.2.1' });
  const { accessToken: token, user } = await api<{ accessToken: string; user: { id: string } }>(
    folio.url,
    'POST',
    '/api/auth/login',
    { body: { email, password }, ip: '10.9.2.1' },
  );
  await sql`insert into subscriptions (user_id, plan, status) values (${user.id}, 'PRO', 'ACTIVE')`;
  const t0 = performance.now();
  const profileIds = await seedProfiles(sql, user.id, PROFILES);
  await seedCfdis(sql, user.id, ROWS, PROFILES, () => {});
  const [catalog] = await sql<{ n: number }[]>`select count(*)::int as n from sat_products`;
  log(
    `seeded ${ROWS.toLocaleString('en')} CFDI over ${PROFILES} profiles in ${((performance.now() - t0) / 1000).toFixed(0)} s; catalog ${catalog!.n} codes`,
  );
  const [importer] = await sql<
    { id: string; rfc: string }[]
  >`select id, rfc from profiles where id = ${profileIds[0]!}`;

  const headers = { authorization: `Bearer ${token}` };
  const request = (route: Route): Promise<Response> => {
    const p = profileIds[Math.floor(Math.random() * profileIds.length)]!;
    const mes = 1 + Math.floor(Math.random() * 12);
    switch (route) {
      case 'invoice list':
        return fetch(`${folio!.url}/api/invoices?profileId=${p}&mes=${mes}&a%C3%B1o=2025`, { headers });
      case 'expense list':
        return fetch(`${folio!.url}/api/expenses?profileId=${p}&mes=${mes}&a%C3%B1o=2025`, { headers });
      case 'SAT search':
        return fetch(
          `${folio!.url}/api/sat/search?query=${encodeURIComponent(SEARCHES[Math.floor(Math.random() * SEARCHES.length)]!)}`,
          { headers },
        );
      case 'subscription':
        return fetch(`${folio!.url}/api/subscription`, { headers });
      case 'import': {
        const xml = invoiceXml({
          uuid: newUuid(),
          emisor: { rfc: importer!.rfc, nombre: 'Contribuyente', regimen: '601' },
          receptor: { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' },
          fecha: '2025-06-15T10:00:00',
        });
        return fetch(`${folio!.url}/api/profiles/${importer!.id}/cfdi`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/xml' },
          body: xml,
        });
      }
    }
  };

  const samples = new Map<Route, number[]>(MIX.map(([r]) => [r, []]));
  const errors = new Map<Route, number>();
  let measuring = false;
  const deadline = performance.now() + (WARMUP_S + DURATION_S) * 1000;
  setTimeout(() => {
    measuring = true;
  }, WARMUP_S * 1000);
  const worker = async () => {
    while (performance.now() < deadline) {
      const route = pick();
      const started = performance.now();
      const res = await request(route).catch(() => undefined);
      await res?.arrayBuffer().catch(() => undefined);
      const took = performance.now() - started;
      if (!measuring) continue;
      if (!res || res.status >= 400) errors.set(route, (errors.get(route) ?? 0) + 1);
      samples.get(route)!.push(took);
    }
  };
  log(
    `load: ${CONNECTIONS} clients, ${WARMUP_S} s warm-up, ${DURATION_S} s measured; load average ${load()}`,
  );
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));

  let total = 0;
  let errorCount = 0;
  let worstReadP99 = 0;
  log(
    `${'route'.padEnd(14)} ${'req/s'.padStart(8)} ${'p50'.padStart(9)} ${'p95'.padStart(9)} ${'p99'.padStart(9)} ${'errors'.padStart(7)}`,
  );
  for (const [route] of MIX) {
    const s = summarize(samples.get(route)!);
    total += s.n;
    errorCount += errors.get(route) ?? 0;
    if (READS.includes(route)) worstReadP99 = Math.max(worstReadP99, s.p99);
    log(
      `${route.padEnd(14)} ${(s.n / DURATION_S).toFixed(1).padStart(8)} ${`${s.p50.toFixed(1)} ms`.padStart(9)} ${`${s.p95.toFixed(1)} ms`.padStart(9)} ${`${s.p99.toFixed(1)} ms`.padStart(9)} ${String(errors.get(route) ?? 0).padStart(7)}`,
    );
  }
  const rss = peakRssMb(folio.pid);
  log(
    `total ${(total / DURATION_S).toFixed(1)} req/s, ${errorCount} errors, server peak RSS ${rss.toFixed(0)} MB; load average ${load()}`,
  );
  log(
    `targets: zero errors ${errorCount === 0 ? 'met' : 'NOT met'}; p99 ≤ 50 ms for reads ${worstReadP99 <= 50 ? 'met' : 'NOT met'} (worst ${worstReadP99.toFixed(1)} ms); RSS ≤ 300 MB ${rss <= 300 ? 'met' : 'NOT met'}`,
  );
} finally {
  await folio?.stop();
  await sql.end({ timeout: 5 });
}
