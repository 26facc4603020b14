// bench/export: GET /api/invoices/export of 100,000 invoices on PostgreSQL, as xlsx and as csv, from
// the real server (the built bundle, as `pnpm start` runs it). Reports time to the first byte and to
// the last, rows/s, the file's size, and the server's RSS growth while it streams (sampled from
// /proc every 20 ms against the RSS just before the request), with its V8 heap and external memory
// (Buffers) from inside it. Target (plan-features §2): RSS growth ≤ 100 MB on a server's first
// export — the one that grows the heap —, so each format runs on a freshly started server: first
// the counted run, then a second one on the warmed server. The client reads as fast as it can.
// Then GET /api/invoices/{id}/pdf of one 20-concept CFDI, PDFS times (default 1,000) by as many
// concurrent clients as the machine has cores: PDFs/s, and the server process's CPU time (from
// /proc) so the figure per core is PDFs per CPU-second, whatever else the machine is doing.
// Run: bash ../scripts/with-postgres.sh tsx export/run.ts   (env ROWS, default 100000; PDFS)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import postgres from 'postgres';
import { seedCfdis, seedProfiles } from '../invoice-list/seed';
import { api, type Child, MEMORY_PEAKS, memoryPeaks, signIn, startFolio } from '../lib/server';
import { machine } from '../lib/stats';

const ROWS = Number(process.env.ROWS ?? 100_000);
const PDFS = Number(process.env.PDFS ?? 1_000);
const TARGET_MB = 100;

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.error(
    'TEST_DATABASE_URL not set: run via scripts/with-postgres.sh (pnpm --filter @folio/bench run export)',
  );
  process.exit(2);
}
const log = (s: string) => console.log(s);
log(
  `bench/export on ${machine()}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

/** Resident set size of a process, in MB (Linux). */
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function exportOnce(
  folio: Child,
  token: string,
  profileId: string,
  format: 'xlsx' | 'csv',
  run: string,
) {
  const { now } = await memoryPeaks(folio); // and the peaks start again from here
  const before = rssMb(folio.pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(folio.pid));
  }, 20);
  const t0 = performance.now();
  const res = await fetch(`${folio.url}/api/invoices/export?profileId=${profileId}&format=${format}`, {
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '10.9.2.1' },
  });
  if (res.status !== 200 || !res.body) throw new Error(`${format}: ${res.status} ${await res.text()}`);
  const firstByte = performance.now() - t0;
  let bytes = 0;
  const reader = res.body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const inside = (await memoryPeaks(folio)).peak;
  const growth = peak - before;
  log(
    `${format.padEnd(4)} ${run}: ${ROWS.toLocaleString('en')} rows in ${seconds.toFixed(2)} s ` +
      `(${Math.round(ROWS / seconds).toLocaleString('en')} rows/s, first byte ${firstByte.toFixed(0)} ms), ` +
      `${(bytes / 1024 / 1024).toFixed(1)} MB; server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB ` +
      `(+${growth.toFixed(0)} MB, target ≤ ${TARGET_MB}: ${growth <= TARGET_MB ? 'ok' : 'OVER'}); ` +
      `heap used ${now.heapUsed} → peak ${inside.heapUsed} MB, external ${now.external} → peak ${inside.external} MB ` +
      `(of which ArrayBuffers ${now.arrayBuffers} → ${inside.arrayBuffers})`,
  );
}

/** CPU seconds (user + system) a process has used so far (Linux: /proc/PID/stat, in clock ticks). */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
function cpuSeconds(pid: number): number {
  // Fields after the command name (which may hold spaces, hence the last ')'): utime and stime are
  // the 14th and 15th of the line, the 12th and 13th after it.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/** PDFS downloads of one CFDI's PDF by `clients` concurrent clients; throughput by wall and by CPU. */
async function pdfs(folio: Child, token: string, profileId: string) {
  const conceptos = Array.from({ length: 20 }, (_, i) => ({
    descripcion: `Servicio de consultoría ${i + 1}: diseño, instalación y puesta en marcha (año 2025)`,
    importe: 1_000 + i * 37.5,
  }));
  const xml = invoiceXml({
    uuid: newUuid(),
    emisor: { rfc: 'ÑAN970701AB1', nombre: 'Ñandú Ingeniería & Asociados', regimen: '601' },
    receptor: { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' },
    fecha: '2025-03-10T09:15:00',
    conceptos,
  });
  const upload = await fetch(`${folio.url}/api/profiles/${profileId}/cfdi/xml`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '10.9.2.1' },
    body: xml,
  });
  if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
  const id = ((await upload.json()) as { data: { files: { id: string }[] } }).data.files[0]!.id;
  const get = async () => {
    const res = await fetch(`${folio.url}/api/invoices/${id}/pdf`, {
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '10.9.2.1' },
    });
    const body = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`pdf: ${res.status} ${new TextDecoder().decode(body)}`);
    return body.byteLength;
  };
  const size = await get(); // warm up: fonts parsed, code compiled
  for (let i = 0; i < Math.min(20, PDFS); i++) await get();
  const clients = Math.max(1, os.availableParallelism());
  let next = 0;
  const cpu0 = cpuSeconds(folio.pid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < PDFS) {
        next++;
        await get();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(folio.pid) - cpu0;
  log(
    `pdf  ${PDFS.toLocaleString('en')} PDFs (20 concepts, ${(size / 1024).toFixed(0)} KB each) by ${clients} clients in ` +
      `${seconds.toFixed(2)} s: ${(PDFS / seconds).toFixed(1)} PDFs/s; server CPU ${cpu.toFixed(2)} s → ` +
      `${(PDFS / cpu).toFixed(1)} PDFs per CPU-second (per core), ${((cpu / PDFS) * 1000).toFixed(1)} ms CPU each`,
  );
}

const env = { DATABASE_URL: url, TRUST_PROXY: 'true' };
const email = `bench-export-${Date.now()}@example.com`;

let folio: Child | undefined;
const sql = postgres(url, { max: 2, onnotice: () => {} });
try {
  folio = await startFolio(env, MEMORY_PEAKS);
  const { userId } = await signIn(folio.url, email, '10.9.2.1');
  await sql`insert into subscriptions (user_id, plan, status) values (${userId}, 'PRO', 'ACTIVE')`;
  const t0 = performance.now();
  const [profileId] = await seedProfiles(sql, userId, 1);
  await seedCfdis(sql, userId, ROWS, 1, log);
  // The seed files a tenth as expenses: make every row an invoice, so the export holds ROWS rows.
  await sql`update cfdis set side = 'income' where user_id = ${userId}`;
  await sql`vacuum analyze cfdis`;
  log(`seeded ${ROWS.toLocaleString('en')} invoices in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  // Each format on a server started for it (nothing exported before), then once more on it warm.
  let token = '';
  for (const format of ['xlsx', 'csv'] as const) {
    await folio.stop();
    folio = await startFolio(env, MEMORY_PEAKS);
    ({ token } = await signIn(folio.url, email, '10.9.2.1', { registered: true }));
    await exportOnce(folio, token, profileId!, format, 'first after start');
    await exportOnce(folio, token, profileId!, format, 'again, warm     ');
  }
  const printed = await api<{ data: { id: string } }>(folio.url, 'POST', '/api/profiles', {
    token,
    ip: '10.9.2.1',
    body: { nombre: 'Ñandú', rfc: 'ÑAN970701AB1', tipo_persona: 'MORAL', regimenes_fiscales: ['601'] },
  });
  await pdfs(folio, token, printed.data.id);
} finally {
  await sql.end();
  await folio?.stop();
}
