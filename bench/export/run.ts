// bench/export: GET /api/invoices/export of 100,000 invoices on PostgreSQL, as xlsx and as csv, from
// the real server (the built bundle, as `pnpm start` runs it). Reports time to the first byte and to
// the last, rows/s, the file's size, and the server's RSS growth while it streams (sampled from
// /proc every 20 ms against the RSS just before the request). Target (plan-features §2): RSS growth
// ≤ 100 MB. The client reads as fast as it can; each export runs twice and both runs are printed.
// Run: bash ../scripts/with-postgres.sh tsx export/run.ts   (env ROWS, default 100000)
import { readFileSync } from 'node:fs';
import os from 'node:os';
import postgres from 'postgres';
import { seedCfdis, seedProfiles } from '../invoice-list/seed';
import { api, type Child, startFolio } from '../lib/server';
import { machine } from '../lib/stats';

const ROWS = Number(process.env.ROWS ?? 100_000);
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

async function exportOnce(folio: Child, token: string, profileId: string, format: 'xlsx' | 'csv') {
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
  const growth = peak - before;
  log(
    `${format.padEnd(4)} ${ROWS.toLocaleString('en')} rows in ${seconds.toFixed(2)} s ` +
      `(${Math.round(ROWS / seconds).toLocaleString('en')} rows/s, first byte ${firstByte.toFixed(0)} ms), ` +
      `${(bytes / 1024 / 1024).toFixed(1)} MB; server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB ` +
      `(+${growth.toFixed(0)} MB, target ≤ ${TARGET_MB}: ${growth <= TARGET_MB ? 'ok' : 'OVER'})`,
  );
}

let folio: Child | undefined;
const sql = postgres(url, { max: 2, onnotice: () => {} });
try {
  folio = await startFolio({ DATABASE_URL: url, TRUST_PROXY: 'true' });
  const email = `bench-export-${Date.now()}@example.com`;
  const password = 'bench password 1';
  await api(folio.url, 'POST', '/api/auth/register', { body: { email, password }, ip: '10.9.2.1' });
  const { accessToken: token, user } = await api<{ accessToken: string; user: { id: string } }>(
    folio.url,
    'POST',
    '/api/auth/login',
    { body: { email, password }, ip: '10.9.2.1' },
  );
  await sql`insert into subscriptions (user_id, plan, status) values (${user.id}, 'PRO', 'ACTIVE')`;
  const t0 = performance.now();
  const [profileId] = await seedProfiles(sql, user.id, 1);
  await seedCfdis(sql, user.id, ROWS, 1, log);
  // The seed files a tenth as expenses: make every row an invoice, so the export holds ROWS rows.
  await sql`update cfdis set side = 'income' where user_id = ${user.id}`;
  await sql`vacuum analyze cfdis`;
  log(`seeded ${ROWS.toLocaleString('en')} invoices in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  for (const format of ['xlsx', 'csv', 'xlsx', 'csv'] as const)
    await exportOnce(folio, token, profileId!, format);
} finally {
  await sql.end();
  await folio?.stop();
}
