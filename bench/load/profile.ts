// bench/load/profile.ts: where the server's CPU goes for one kind of request of the load mix — a SAT
// catalog search and a single-XML import by default — on PostgreSQL (under scripts/with-postgres.sh)
// or, without TEST_DATABASE_URL, on PGlite in a temporary directory. For each kind, WARM requests
// first, not measured (code compiled, caches filled), then N requests one at a time under V8's
// profiler (lib/cpu-window.mjs): the server's CPU ms per request from /proc (every thread of the
// process) and from the profile (its main thread), PostgreSQL's beside it, then the profile's self
// time by package and by function. CPU time hardly moves when other work shares the machine,
// unlike latency; the load average is printed with it.
// Run: bash ../scripts/with-postgres.sh tsx load/profile.ts  or  tsx load/profile.ts (PGlite);
// env N (300), WARM (50), KINDS (comma list of: sat-search, import, invoice-list; default the first two).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import { printCpuProfile } from '../lib/cpuprofile';
import { cpuMs, postgresCpuMs } from '../lib/proc';
import { api, CPU_WINDOW, cpuWindow, signIn, startFolio } from '../lib/server';
import { machine } from '../lib/stats';

const N = Number(process.env.N ?? 300);
const WARM = Number(process.env.WARM ?? 50);
const KINDS = (process.env.KINDS ?? 'sat-search,import').split(',');
const url = process.env.TEST_DATABASE_URL;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const log = (s: string) => console.log(s);

const SEARCHES = ['computadora', 'gasolina', 'servicios contables', 'papeleria', 'hotel', 'cemento'];
const dir = mkdtempSync(join(os.tmpdir(), 'folio-load-profile-'));
log(`bench/load/profile on ${machine()}, ${url ? 'PostgreSQL' : 'PGlite'}; load average ${load()}`);
const folio = await startFolio(
  url
    ? { DATABASE_URL: url, TRUST_PROXY: 'true', CPU_WINDOW_DIR: dir }
    : { PGLITE_DATA_DIR: join(dir, 'pglite'), TRUST_PROXY: 'true', CPU_WINDOW_DIR: dir },
  CPU_WINDOW,
);
try {
  const ip = '10.9.4.1';
  const { token } = await signIn(folio.url, `profile-${Date.now()}@example.com`, ip);
  const headers = { authorization: `Bearer ${token}`, 'x-forwarded-for': ip };
  // PRO through the offline dev billing provider (as `folio upgrade --complete-dev`): searches unlimited.
  const checkout = await api<{ data: { sessionId: string } }>(
    folio.url,
    'POST',
    '/api/subscription/create-checkout',
    { token, ip, body: { plan: 'PRO' } },
  );
  const paid = await fetch(`${folio.url}/__dev/billing/checkout/${checkout.data.sessionId}/complete`, {
    method: 'POST',
    redirect: 'manual',
  });
  if (paid.status >= 400) throw new Error(`dev checkout: ${paid.status} ${await paid.text()}`);
  const rfc = 'EKU9003173C9';
  const profile = await api<{ data: { id: string } }>(folio.url, 'POST', '/api/profiles', {
    token,
    ip,
    body: { nombre: 'Perfil de perfilado', rfc, tipo_persona: 'MORAL', regimenes_fiscales: ['601'] },
  });
  const profileId = profile.data.id;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
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
    'invoice-list': () => send('GET', `/api/invoices?profileId=${profileId}&mes=6&a%C3%B1o=2025`),
  };
  for (const kind of KINDS) {
    const one = requests[kind];
    if (!one) throw new Error(`KINDS: unknown ${kind} (${Object.keys(requests).join(', ')})`);
    for (let w = 0; w < WARM; w++) await one();
    const [cpu0, pg0] = [cpuMs(folio.pid), postgresCpuMs(process.env.PG_TEST_DATA)];
    const t0 = performance.now();
    const file = await cpuWindow(folio, async () => {
      for (let n = 0; n < N; n++) await one();
    });
    const wall = performance.now() - t0;
    const [cpu, pg] = [cpuMs(folio.pid) - cpu0, postgresCpuMs(process.env.PG_TEST_DATA) - pg0];
    const prof = JSON.parse(readFileSync(file, 'utf8')) as {
      timeDeltas: number[];
      samples: number[];
      nodes: { id: number; callFrame: { functionName: string } }[];
    };
    const idle = new Set(prof.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
    const busyUs = prof.samples.reduce(
      (sum, id, k) => sum + (idle.has(id) ? 0 : (prof.timeDeltas[k] ?? 0)),
      0,
    );
    log(
      `\n${kind}: ${N} requests one at a time in ${(wall / 1000).toFixed(1)} s; CPU per request: server ${(cpu / N).toFixed(2)} ms (/proc, all threads), ` +
        `main thread ${(busyUs / 1000 / N).toFixed(2)} ms (profile)${url ? `, PostgreSQL ${(pg / N).toFixed(2)} ms` : ''}; load average ${load()}`,
    );
    printCpuProfile(file, `${kind} CPU profile`, 25, `${N} requests`);
  }
  agent.destroy();
} finally {
  await folio.stop();
  rmSync(dir, { recursive: true, force: true });
}
