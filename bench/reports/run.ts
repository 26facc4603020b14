// bench/reports: GET /api/reports/annual (and the monthly report and DIOT of one month) of a profile
// with ROWS CFDI in one year, on PostgreSQL, from the real server (the built bundle, as `pnpm start`
// runs it). Each report is asked for once to warm up, then RUNS times; prints every time and the
// median. Target (plan-features §3): the annual report of 100,000 CFDI under 2 s. Then where the
// annual report's time goes: the CPU the server and PostgreSQL spent per request (less sensitive to
// other load than the times), and the report timed again in this process, its statements
// (reportRows) apart from the computation and the JSON.
// Run: bash ../scripts/with-postgres.sh tsx reports/run.ts   (env ROWS default 100000, MANUAL, RUNS)
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { annualReport, yearRange } from '@folio/api';
import { openDb } from '@folio/db';
import { reportRows } from '@folio/db/queries/reports';
import postgres from 'postgres';
import { seedProfiles } from '../invoice-list/seed';
import { type Child, signIn, startFolio } from '../lib/server';
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

/** CPU milliseconds a process has used (user + system); with `children`, also its reaped children's. */
function cpuMs(pid: number, children = false): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = (i: number) => Number(f[i - 3]);
  return ((ticks(14) + ticks(15) + (children ? ticks(16) + ticks(17) : 0)) * 1000) / 100;
}

/** CPU the PostgreSQL cluster has used: the postmaster's exited children and its live ones. */
function postgresCpuMs(): number {
  const postmaster = Number(
    readFileSync(`${process.env.PG_TEST_DATA}/postmaster.pid`, 'utf8').split('\n')[0],
  );
  const live = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim().split(/\s+/);
  let total = cpuMs(postmaster, true);
  for (const pid of live.filter(Boolean)) {
    try {
      total += cpuMs(Number(pid));
    } catch {
      // exited meanwhile: now in the postmaster's children total
    }
  }
  return total;
}

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
  const { token, userId } = await signIn(folio.url, `bench-reports-${Date.now()}@example.com`, '10.9.3.1');
  await sql`insert into subscriptions (user_id, plan, status) values (${userId}, 'PRO', 'ACTIVE')`;
  const t0 = performance.now();
  const [profileId] = await seedProfiles(sql, userId, 1);
  const [profile] = await sql<{ rfc: string }[]>`select rfc from profiles where id = ${profileId!}`;
  await seedReports(
    sql,
    { userId: userId, profileId: profileId!, rfc: profile!.rfc, año: AÑO, rows: ROWS, manual: MANUAL },
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
    const [node0, pg0] = [cpuMs(folio.pid), postgresCpuMs()];
    const times = await timed(folio, token, path);
    const node = (cpuMs(folio.pid) - node0) / (RUNS + 1);
    const pg = (postgresCpuMs() - pg0) / (RUNS + 1);
    const m = median(times);
    log(
      `${what.padEnd(8)} median ${m.toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms; ` +
        `CPU per request: server ${node.toFixed(0)} ms, PostgreSQL ${pg.toFixed(0)} ms)` +
        (what === 'annual' ? `; target < ${TARGET_MS} ms: ${m < TARGET_MS ? 'ok' : 'OVER'}` : ''),
    );
  }
  const handle = await openDb({ databaseUrl: url, migrate: false });
  try {
    const [p] = await sql<
      { nombre: string; tipo_persona: 'FISICA' | 'MORAL'; regimenes_fiscales: string[] }[]
    >`
      select nombre, tipo_persona, regimenes_fiscales from profiles where id = ${profileId!}`;
    const reportProfile = {
      id: profileId!,
      rfc: profile!.rfc,
      nombre: p!.nombre,
      tipoPersona: p!.tipo_persona,
      regimenesFiscales: p!.regimenes_fiscales,
    };
    const sqlMs: number[] = [];
    const computeMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const rows = await reportRows(handle.db, { profileId: profileId!, ...yearRange(AÑO) });
      const t1 = performance.now();
      JSON.stringify(annualReport(reportProfile, rows, AÑO, 'advanced', new Date()));
      sqlMs.push(t1 - t0);
      computeMs.push(performance.now() - t1);
    }
    log(
      `annual in this process: statements median ${median(sqlMs).toFixed(0)} ms, ` +
        `computation and JSON median ${median(computeMs).toFixed(0)} ms`,
    );
  } finally {
    await handle.close();
  }
} finally {
  await sql.end();
  await folio?.stop();
}
