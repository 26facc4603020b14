// bench/reports: GET /api/reports/annual (and the monthly report and DIOT of one month) of a profile
// with ROWS CFDI in one year, on PostgreSQL, from the real server (the built bundle, as `pnpm start`
// runs it). Each report is asked for once to warm up, then RUNS times; prints every time and the
// median. Target (plan-features §3): the annual report of 100,000 CFDI under 2 s.
// Run: bash ../scripts/with-postgres.sh tsx reports/run.ts   (env ROWS default 100000, MANUAL, RUNS)
import os from 'node:os';
import postgres from 'postgres';
import { seedProfiles } from '../invoice-list/seed';
import { api, type Child, startFolio } from '../lib/server';
import { machine } from '../lib/stats';
import { seedReports } from './seed';

const ROWS = Number(process.env.ROWS ?? 100_000);
const MANUAL = Number(process.env.MANUAL ?? Math.max(1, Math.round(ROWS / 50)));
const RUNS = Number(process.env.RUNS ?? 5);
const AÑO = 2025;
const TARGET_MS = 2000;

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.error('TEST_DATABASE_URL not set: run via scripts/with-postgres.sh (pnpm bench:reports)');
  process.exit(2);
}
const log = (s: string) => console.log(s);
log(
  `bench/reports on ${machine()}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

async function timed(folio: Child, token: string, path: string): Promise<number[]> {
  const once = async () => {
    const t0 = performance.now();
    const res = await fetch(folio.url + path, {
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '10.9.3.1' },
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 300)}`);
    return performance.now() - t0;
  };
  await once();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await once());
  return times;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

let folio: Child | undefined;
const sql = postgres(url, { max: 2, onnotice: () => {} });
try {
  folio = await startFolio({ DATABASE_URL: url, TRUST_PROXY: 'true' });
  const email = `bench-reports-${Date.now()}@example.com`;
  const password = 'bench password 1';
  await api(folio.url, 'POST', '/api/auth/register', { body: { email, password }, ip: '10.9.3.1' });
  const { accessToken: token, user } = await api<{ accessToken: string; user: { id: string } }>(
    folio.url,
    'POST',
    '/api/auth/login',
    { body: { email, password }, ip: '10.9.3.1' },
  );
  await sql`insert into subscriptions (user_id, plan, status) values (${user.id}, 'PRO', 'ACTIVE')`;
  const t0 = performance.now();
  const [profileId] = await seedProfiles(sql, user.id, 1);
  const [profile] = await sql<{ rfc: string }[]>`select rfc from profiles where id = ${profileId!}`;
  await seedReports(
    sql,
    { userId: user.id, profileId: profileId!, rfc: profile!.rfc, año: AÑO, rows: ROWS, manual: MANUAL },
    log,
  );
  const [counts] = await sql<{ cfdis: string; apps: string }[]>`
    select (select count(*) from cfdis where profile_id = ${profileId!}) as cfdis,
           (select count(*) from payment_applications where profile_id = ${profileId!}) as apps`;
  log(
    `seeded ${Number(counts!.cfdis).toLocaleString('en')} CFDI (${Number(counts!.apps).toLocaleString('en')} payment applications) ` +
      `and ${MANUAL.toLocaleString('en')} manual expenses in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  const q = `profileId=${profileId}&a%C3%B1o=${AÑO}`;
  for (const [what, path] of [
    ['annual', `/api/reports/annual?${q}`],
    ['monthly', `/api/reports/monthly?${q}&mes=6`],
    ['diot', `/api/reports/diot?${q}&mes=6`],
  ] as const) {
    const times = await timed(folio, token, path);
    const m = median(times);
    log(
      `${what.padEnd(8)} median ${m.toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms)` +
        (what === 'annual' ? `; target < ${TARGET_MS} ms: ${m < TARGET_MS ? 'ok' : 'OVER'}` : ''),
    );
  }
} finally {
  await sql.end();
  await folio?.stop();
}
