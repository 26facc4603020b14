// bench/memory: the server's resident memory (RSS, from /proc/PID/status) as `pnpm start` runs it, on
// PGlite (a fresh data directory under the temp dir) and, when TEST_DATABASE_URL is set (as
// scripts/with-postgres.sh does), on PostgreSQL. Read at four points: idle after the first start on an
// empty database; idle after a restart on ROWS seeded invoices; after importing DOCS CFDI through the API
// (bench/import's dataset, two ZIPs); after an xlsx export of the ROWS invoices. Between the points RSS
// is sampled every 20 ms for the peak under load, and VmHWM (the peak since start) is printed too.
// Targets (issue 30): idle ≤ 250 MB on PGlite and ≤ 150 MB on PostgreSQL, ≤ 400 MB on PGlite under load.
// Baseline line: a bare `node` process, and PGlite opened alone with the server's settings.
// Run: pnpm bench:memory   (env DOCS, default 10000; ROWS, default 100000; BACKENDS=pglite,postgres)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { openDb } from '@folio/db';
import { strToU8, zipSync } from 'fflate';
import postgres, { type Sql } from 'postgres';
import { buildDataset, createProfile, MIX, type Mix, total } from '../import/dataset';
import { seedCfdis, seedProfiles } from '../invoice-list/seed';
import {
  type Child,
  MEMORY_PEAKS,
  type Memory,
  memoryPeaks,
  rawRequest,
  signIn,
  startFolio,
} from '../lib/server';
import { machine } from '../lib/stats';
import { pgliteSql } from './pglite-sql';

const DOCS = Number(process.env.DOCS ?? total(MIX));
const ROWS = Number(process.env.ROWS ?? 100_000);
const BACKENDS = (process.env.BACKENDS ?? 'pglite,postgres').split(',');
const TARGETS = { pglite: { idle: 250, load: 400 }, postgres: { idle: 150, load: undefined } } as const;
const IP = '10.9.3.1';

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const log = (s: string) => console.log(s);

/** VmRSS and VmHWM of a process, in MB. */
function status(pid: number): { rss: number; hwm: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(s)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** Runs `work` while sampling the server's RSS every 20 ms; its peak, in MB. */
async function peakDuring(pid: number, work: () => Promise<void>): Promise<number> {
  let peak = status(pid).rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, status(pid).rss);
  }, 20);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, status(pid).rss);
}

/** Idle: a few seconds after the last request, once start-up work and the GC have settled. */
async function idle(server: Child): Promise<{ rss: number; hwm: number; now: Memory; peak: Memory }> {
  await new Promise((r) => setTimeout(r, 5_000));
  return { ...status(server.pid), ...(await memoryPeaks(server)) };
}

/**
 * Inside the server (process.memoryUsage()): V8's heap, and `external`, which counts PGlite's
 * WebAssembly memory (reserved, not all resident) and Buffers. The rest of RSS is node's own code,
 * malloc and compiled code (docs/benchmarks.md#memory).
 */
const inside = (m: Memory) => `V8 heap used ${mb(m.heapUsed)}, external ${mb(m.external)}`;

const mb = (v: number) => `${v.toFixed(0)} MB`;
function verdict(value: number, target: number | undefined): string {
  if (target === undefined) return '';
  return ` (target ≤ ${target} MB: ${value <= target ? 'met' : 'NOT met'})`;
}

// ---- the dataset: bench/import's mix, scaled to DOCS, in two ZIPs (an upload holds at most 5,000) ----
const scale = DOCS / total(MIX);
const mix = Object.fromEntries(
  Object.entries(MIX).map(([k, n]) => [k, Math.round(n * scale)]),
) as unknown as Mix;
const { docs } = buildDataset(mix);
const perZip = Math.ceil(docs.length / 2);
async function multipart(from: number): Promise<{ contentType: string; body: Uint8Array }> {
  const zip = zipSync(
    Object.fromEntries(docs.slice(from, from + perZip).map((d) => [d.name, strToU8(d.xml)])),
  );
  const form = new FormData();
  form.append('files', new File([zip], `lote-${from}.zip`, { type: 'application/zip' }));
  const res = new Response(form);
  return { contentType: res.headers.get('content-type')!, body: new Uint8Array(await res.arrayBuffer()) };
}
const uploads = [await multipart(0), await multipart(perZip)];

interface Backend {
  name: 'pglite' | 'postgres';
  label: string;
  env: Record<string, string>;
  /** The database from outside the server (PGlite's only while the server is stopped). */
  withSql<T>(use: (sql: Sql) => Promise<T>): Promise<T>;
  cleanup(): void;
}

function pgliteBackend(): Backend {
  const parent = mkdtempSync(join(os.tmpdir(), 'folio-bench-memory-'));
  const dir = join(parent, 'pglite');
  return {
    name: 'pglite',
    label: `PGlite (fresh data directory ${dir})`,
    env: { PGLITE_DATA_DIR: dir },
    async withSql(use) {
      const h = await openDb({ pgliteDataDir: dir });
      try {
        return await use(pgliteSql(h.pglite!));
      } finally {
        await h.close();
      }
    },
    cleanup: () => rmSync(parent, { recursive: true, force: true }),
  };
}

function postgresBackend(url: string): Backend {
  return {
    name: 'postgres',
    label: `PostgreSQL (${url.replace(/\/\/[^@]*@/, '//')})`,
    env: { DATABASE_URL: url },
    async withSql(use) {
      const sql = postgres(url, { max: 2, onnotice: () => {} });
      try {
        return await use(sql);
      } finally {
        await sql.end();
      }
    },
    cleanup: () => {},
  };
}

interface Figures {
  idleFresh: number;
  idleSeeded: number;
  import: number;
  export: number;
  hwm: number;
}

async function run(b: Backend): Promise<Figures> {
  log(`\n== ${b.label}; load average ${load()}`);
  const env = { ...b.env, TRUST_PROXY: 'true' };
  let server = await startFolio(env, MEMORY_PEAKS);
  try {
    const fresh = await idle(server);
    log(
      `idle after the first start (empty database): RSS ${mb(fresh.rss)} (${inside(fresh.now)}), ` +
        `peak so far ${mb(fresh.hwm)}`,
    );
    const email = `bench-memory-${Date.now()}@example.com`;
    const { userId } = await signIn(server.url, email, IP);
    await server.stop();

    const t0 = performance.now();
    const profileId = await b.withSql(async (sql) => {
      await sql`insert into subscriptions (user_id, plan, status) values (${userId}, 'PRO', 'ACTIVE')`;
      const [id] = await seedProfiles(sql, userId, 1);
      await seedCfdis(sql, userId, ROWS, 1, () => {});
      // The seed files a tenth as expenses: make every row an invoice, so the export holds ROWS rows.
      await sql`update cfdis set side = 'income' where user_id = ${userId}`;
      return id!;
    });
    log(`seeded ${ROWS.toLocaleString('en')} invoices in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    server = await startFolio(env, MEMORY_PEAKS);
    const { token } = await signIn(server.url, email, IP, { registered: true });
    const seeded = await idle(server);
    log(
      `idle after a restart on ${ROWS.toLocaleString('en')} invoices: RSS ${mb(seeded.rss)} (${inside(seeded.now)})`,
    );

    const importProfile = await createProfile(server.url, token);
    const importStart = performance.now();
    const importPeak = await peakDuring(server.pid, async () => {
      for (const u of uploads) {
        const res = await rawRequest(
          `${server.url}/api/profiles/${importProfile}/cfdi`,
          'POST',
          { authorization: `Bearer ${token}`, 'content-type': u.contentType, 'x-forwarded-for': IP },
          u.body,
        );
        if (res.status !== 201) throw new Error(`import: ${res.status} ${res.text.slice(0, 300)}`);
      }
    });
    const importS = (performance.now() - importStart) / 1000;
    const afterImport = await idle(server);
    log(
      `import of ${docs.length.toLocaleString('en')} CFDI (2 ZIPs) in ${importS.toFixed(1)} s: peak RSS ${mb(importPeak)} ` +
        `(${inside(afterImport.peak)} at their peaks), ${mb(afterImport.rss)} idle after it`,
    );

    let bytes = 0;
    const exportStart = performance.now();
    const exportPeak = await peakDuring(server.pid, async () => {
      const res = await fetch(`${server.url}/api/invoices/export?profileId=${profileId}&format=xlsx`, {
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': IP },
      });
      if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status} ${await res.text()}`);
      const reader = res.body.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
    });
    const exportS = (performance.now() - exportStart) / 1000;
    const afterExport = await idle(server);
    log(
      `xlsx export of ${ROWS.toLocaleString('en')} rows (${(bytes / 1048576).toFixed(1)} MB) in ${exportS.toFixed(1)} s: ` +
        `peak RSS ${mb(exportPeak)} (${inside(afterExport.peak)} at their peaks), ${mb(afterExport.rss)} idle after it; ` +
        `VmHWM since the restart ${mb(afterExport.hwm)}`,
    );
    return {
      idleFresh: fresh.rss,
      idleSeeded: seeded.rss,
      import: importPeak,
      export: exportPeak,
      hwm: afterExport.hwm,
    };
  } catch (err) {
    console.error(`server output:\n${server.tail()}`);
    throw err;
  } finally {
    await server.stop();
    b.cleanup();
  }
}

/** RSS of a bare node process, and of one that only opens PGlite as the server does (MB). */
function baseline(): { node: number; pglite: number } {
  const rssOf = (code: string, loader: string[]) =>
    Number(
      execFileSync(process.execPath, [...loader, '--input-type=module', '-e', code], {
        cwd: new URL('..', import.meta.url).pathname,
        encoding: 'utf8',
      }).trim(),
    );
  const print = `console.log(/VmRSS:\\s+(\\d+)/.exec((await import('node:fs')).readFileSync('/proc/self/status', 'utf8'))[1] / 1024);`;
  const dir = mkdtempSync(join(os.tmpdir(), 'folio-bench-memory-bare-'));
  try {
    const node = rssOf(print, []);
    // The server's openDb on an empty directory (initdb, migrations, reference data), then settled;
    // through tsx, as @folio/db is TypeScript source.
    const pglite = rssOf(
      `const { openDb } = await import('@folio/db');` +
        `const h = await openDb({ pgliteDataDir: ${JSON.stringify(join(dir, 'pglite'))} });` +
        `await new Promise((r) => setTimeout(r, 2000)); ${print} await h.close();`,
      ['--import', 'tsx'],
    );
    return { node, pglite };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

log(
  `bench/memory on ${machine()}; ${docs.length.toLocaleString('en')} CFDI to import, ` +
    `${ROWS.toLocaleString('en')} invoices to export; load average ${load()}`,
);
const bare = baseline();
log(
  `baseline: a bare node process ${mb(bare.node)}; PGlite opened alone with the server's settings (under tsx) ${mb(bare.pglite)}`,
);
const summary: string[] = [];
const url = process.env.TEST_DATABASE_URL;
for (const name of BACKENDS) {
  const b = name === 'pglite' ? pgliteBackend() : url ? postgresBackend(url) : undefined;
  if (!b) {
    log('\nTEST_DATABASE_URL not set: PostgreSQL skipped (run via scripts/with-postgres.sh)');
    continue;
  }
  const f = await run(b);
  const t = TARGETS[b.name];
  const underLoad = Math.max(f.import, f.export);
  summary.push(
    `${b.name.padEnd(8)} idle ${mb(f.idleFresh)}${verdict(f.idleFresh, t.idle)}, ` +
      `idle on ${ROWS.toLocaleString('en')} rows ${mb(f.idleSeeded)}${verdict(f.idleSeeded, t.idle)}, ` +
      `import peak ${mb(f.import)}, export peak ${mb(f.export)}${verdict(underLoad, t.load)}`,
  );
  if (f.idleFresh > t.idle || (t.load !== undefined && underLoad > t.load)) process.exitCode = 1;
}
log(`\n${summary.join('\n')}\nload average at the end ${load()}`);
