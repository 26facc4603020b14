// bench/load/profile.ts: where the server's CPU goes for one kind of request of the load mix — a SAT
// catalog search and a single-XML import by default — on PostgreSQL (under scripts/with-postgres.sh).
// For each kind, WARM requests first, not measured (code compiled, caches filled), then N requests
// one at a time: the server's CPU ms per request from /proc (every thread of the process),
// PostgreSQL's beside it, and the statements a request sends (pg_stat_statements); then N more under
// V8's profiler (lib/cpu-window.mjs): its self time by package and by function, and the main
// thread's CPU per request. CPU time hardly moves when other work shares the machine, unlike latency;
// the load average is printed with it.
// Run: pnpm --filter @folio/bench run load:profile; env N (300), WARM (50), PROFILE_DIR (keep the
// profiles there), KINDS (comma list of: sat-search, import, invoice-list, expense-list, subscription,
// export-xlsx, export-csv, pdf, monthly-report, annual-report, meaning-search; default the first two), ROWS (CFDI seeded over 100 profiles as bench:load does, so the listings
// answer full pages of a month; default 0: the listings read an empty profile), PROFILES (100: the
// profiles ROWS is spread over), PLAN (PRO), CONCURRENT (default 1; above 1, after the profile, N more
// requests of the one user CONCURRENT at a time: latency p50/p95/p99, and how often a PostgreSQL
// backend was seen waiting on a lock, sampled every 2 ms from pg_stat_activity — what one user's
// requests arriving together queue on). Each kind's profiled window also prints the longest
// event-loop block: what one request of it makes every other request wait.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import postgres from 'postgres';
import { seedCfdis, seedProfiles } from '../invoice-list/seed';
import { printCpuProfile } from '../lib/cpuprofile';
import { cpuMs, postgresCpuMs } from '../lib/proc';
import { api, CPU_WINDOW, cpuWindow, rawRequest, signIn, startFolio } from '../lib/server';
import { machine, summarize } from '../lib/stats';

const N = Number(process.env.N ?? 300);
const WARM = Number(process.env.WARM ?? 50);
const KINDS = (process.env.KINDS ?? 'sat-search,import').split(',');
const ROWS = Number(process.env.ROWS ?? 0);
/** The profiles ROWS is spread over: 100 as bench:load; PROFILES=1 ROWS=10000 is one profile of 1 M CFDI's size. */
const PROFILES = Number(process.env.PROFILES ?? 100);
/** The caller's plan: PRO, or ENTERPRISE for more searches by meaning than PRO's 500 a month. */
const PLAN = process.env.PLAN ?? 'PRO';
const CONCURRENT = Number(process.env.CONCURRENT ?? 1);
const url = process.env.TEST_DATABASE_URL;
if (!url) throw new Error('run under scripts/with-postgres.sh (TEST_DATABASE_URL)');
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const log = (s: string) => console.log(s);

const SEARCHES = ['computadora', 'gasolina', 'servicios contables', 'papeleria', 'hotel', 'cemento'];
const MEANINGS = [
  'renta de un depa',
  'reparación de aire acondicionado',
  'clases de inglés',
  'flete de mudanza',
];
/** Where the profiles go: PROFILE_DIR to keep them, else a temporary directory removed at the end. */
const dir = process.env.PROFILE_DIR || mkdtempSync(join(os.tmpdir(), 'folio-load-profile-'));
log(`bench/load/profile on ${machine()}, PostgreSQL; load average ${load()}`);
// pg_stat_statements for the statements each request sends (the cluster restarts to load it).
const sql = postgres(url, { max: 1, onnotice: () => {} });
await sql`alter system set shared_preload_libraries = 'pg_stat_statements'`;
await sql.end();
execFileSync(process.env.PG_TEST_CTL!, ['restart', '-m', 'fast'], { stdio: 'ignore' });
const stats = postgres(url, { max: 1, onnotice: () => {} });
await stats`create extension if not exists pg_stat_statements`;
const folio = await startFolio({ DATABASE_URL: url, TRUST_PROXY: 'true', CPU_WINDOW_DIR: dir }, CPU_WINDOW);
try {
  const ip = '10.9.4.1';
  const { token, userId } = await signIn(folio.url, `profile-${Date.now()}@example.com`, ip);
  const headers = { authorization: `Bearer ${token}`, 'x-forwarded-for': ip };
  await stats`insert into subscriptions (user_id, plan, status) values (${userId}, ${PLAN}, 'ACTIVE')`;
  const rfc = 'EKU9003173C9';
  const profile = await api<{ data: { id: string } }>(folio.url, 'POST', '/api/profiles', {
    token,
    ip,
    body: { nombre: 'Perfil de perfilado', rfc, tipo_persona: 'MORAL', regimenes_fiscales: ['601'] },
  });
  const profileId = profile.data.id;
  // The listings read a month of a seeded profile when ROWS > 0 (as bench:load's), else the empty one.
  const listed = ROWS > 0 ? (await seedProfiles(stats, userId, PROFILES))[0]! : profileId;
  if (ROWS > 0) {
    await seedCfdis(stats, userId, ROWS, PROFILES, () => {});
    await stats`select pg_stat_statements_reset()`;
    log(`seeded ${ROWS.toLocaleString('en')} CFDI over ${PROFILES} profiles; load average ${load()}`);
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENT });
  const send = (method: string, path: string, body?: string) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(
        `${folio.url}${path}`,
        {
          method,
          agent,
          headers: body ? { ...headers, 'content-type': 'application/xml' } : headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            (res.statusCode ?? 0) >= 400
              ? reject(new Error(`${method} ${path}: ${res.statusCode} ${Buffer.concat(chunks)}`))
              : resolve(),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  let i = 0;
  // The CFDI the PDFs draw: one of 20 concepts, as bench:load prints.
  let pdfId: string | undefined;
  const printed = async () => {
    if (pdfId) return pdfId;
    const xml = invoiceXml({
      uuid: newUuid(),
      emisor: { rfc, nombre: 'Perfil de perfilado', regimen: '601' },
      receptor: { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' },
      fecha: '2025-06-15T10:00:00',
      conceptos: Array.from({ length: 20 }, (_, k) => ({
        descripcion: `Servicio de consultoría ${k + 1}: diseño, instalación y puesta en marcha`,
        importe: 1_000 + k * 37.5,
      })),
    });
    const up = await rawRequest(
      `${folio.url}/api/profiles/${profileId}/cfdi`,
      'POST',
      { ...headers, 'content-type': 'application/xml' },
      Buffer.from(xml),
    );
    if (up.status !== 201) throw new Error(`upload for the PDFs: ${up.status} ${up.text}`);
    pdfId = (JSON.parse(up.text) as { data: { files: { id: string }[] } }).data.files[0]!.id;
    return pdfId;
  };
  const requests: Record<string, () => Promise<void>> = {
    'sat-search': () =>
      send('GET', `/api/sat/search?query=${encodeURIComponent(SEARCHES[i++ % SEARCHES.length]!)}`),
    import: () =>
      send(
        'POST',
        `/api/profiles/${profileId}/cfdi`,
        invoiceXml({
          uuid: newUuid(),
          emisor: { rfc, nombre: 'Perfil de perfilado', regimen: '601' },
          receptor: { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' },
          fecha: '2025-06-15T10:00:00',
        }),
      ),
    'invoice-list': () =>
      send('GET', `/api/invoices?profileId=${listed}&mes=${1 + (i++ % 12)}&a%C3%B1o=2025`),
    'expense-list': () =>
      send('GET', `/api/expenses?profileId=${listed}&mes=${1 + (i++ % 12)}&a%C3%B1o=2025`),
    subscription: () => send('GET', '/api/subscription'),
    // The heavier 2 % of bench:load's mix, each as it sends them.
    'export-xlsx': () =>
      send('GET', `/api/invoices/export?profileId=${listed}&mes=${1 + (i++ % 12)}&a%C3%B1o=2025&format=xlsx`),
    'export-csv': () =>
      send('GET', `/api/invoices/export?profileId=${listed}&mes=${1 + (i++ % 12)}&a%C3%B1o=2025&format=csv`),
    pdf: async () => send('GET', `/api/invoices/${await printed()}/pdf`),
    'monthly-report': () =>
      send('GET', `/api/reports/monthly?profileId=${listed}&mes=${1 + (i++ % 12)}&a%C3%B1o=2025`),
    'annual-report': () => send('GET', `/api/reports/annual?profileId=${listed}&a%C3%B1o=2025`),
    'meaning-search': () =>
      send('GET', `/api/sat/ai-search?query=${encodeURIComponent(MEANINGS[i++ % MEANINGS.length]!)}`),
  };
  /** N requests CONCURRENT at a time: their latency, and the lock waits seen meanwhile. */
  const concurrently = async (kind: string, one: () => Promise<void>) => {
    const latencies: number[] = [];
    let next = 0;
    let running = true;
    const waits = new Map<string, number>();
    let samples = 0;
    const sampler = (async () => {
      while (running) {
        const rows = await stats<{ what: string }[]>`
          select coalesce(wait_event_type || '/' || wait_event, 'on CPU') || ': ' ||
            left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 70) as what
          from pg_stat_activity
          where state = 'active' and backend_type = 'client backend' and pid <> pg_backend_pid()`;
        samples++;
        for (const r of rows) waits.set(r.what, (waits.get(r.what) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        while (next++ < N) {
          const t = performance.now();
          await one();
          latencies.push(performance.now() - t);
        }
      }),
    );
    const wall = performance.now() - t0;
    running = false;
    await sampler;
    const s = summarize(latencies);
    log(
      `${kind}, ${N} requests ${CONCURRENT} at a time: ${(N / (wall / 1000)).toFixed(0)} req/s, p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms; load average ${load()}`,
    );
    log(`PostgreSQL backends seen active in ${samples} samples (per sample; what they were doing):`);
    for (const [what, n] of [...waits].sort((a, b) => b[1] - a[1]).slice(0, 8))
      log(`  ${(n / samples).toFixed(3).padStart(6)}  ${what}`);
  };
  for (const kind of KINDS) {
    const one = requests[kind];
    if (!one) throw new Error(`KINDS: unknown ${kind} (${Object.keys(requests).join(', ')})`);
    for (let w = 0; w < WARM; w++) await one();
    // CPU per request without the profiler (its sampling and its stop cost CPU too), then profiled.
    await stats`select pg_stat_statements_reset()`;
    const [cpu0, pg0] = [cpuMs(folio.pid), postgresCpuMs(process.env.PG_TEST_DATA)];
    const t0 = performance.now();
    for (let n = 0; n < N; n++) await one();
    const wall = performance.now() - t0;
    const [cpu, pg] = [cpuMs(folio.pid) - cpu0, postgresCpuMs(process.env.PG_TEST_DATA) - pg0];
    log(
      `\n${kind}: ${N} requests one at a time in ${(wall / 1000).toFixed(1)} s; CPU per request: server ${(cpu / N).toFixed(2)} ms ` +
        `(/proc, all threads), PostgreSQL ${(pg / N).toFixed(2)} ms; load average ${load()}`,
    );
    const statements = await stats<{ calls: string; ms: number; query: string }[]>`
      select calls, total_exec_time as ms, query from pg_stat_statements
      where query not like '%pg_stat_statements%' order by calls desc, total_exec_time desc limit 15`;
    const perRequest = statements.reduce((n, st) => n + Number(st.calls), 0) / N;
    log(
      `statements per request: ${perRequest.toFixed(1)} (the most called; calls per request, PostgreSQL ms per call):`,
    );
    for (const st of statements)
      log(
        `  ${(Number(st.calls) / N).toFixed(2).padStart(6)} × ${(st.ms / Number(st.calls)).toFixed(3).padStart(7)} ms  ${st.query.replace(/\s+/g, ' ').slice(0, 150)}`,
      );
    const { file, loopBlock } = await cpuWindow(folio, async () => {
      for (let n = 0; n < N; n++) await one();
    });
    const busy = printCpuProfile(file, `${kind} CPU profile`, 25, `${N} more requests`)?.busyUs ?? 0;
    log(
      `main thread, profiled: ${(busy / 1000 / N).toFixed(2)} ms a request; longest event-loop block ` +
        `${loopBlock.cpuMs} ms of CPU (${loopBlock.wallMs} ms of wall time)`,
    );
    if (CONCURRENT > 1) await concurrently(kind, one);
  }
  agent.destroy();
} finally {
  await folio.stop();
  await stats.end();
  if (!process.env.PROFILE_DIR) rmSync(dir, { recursive: true, force: true });
}
