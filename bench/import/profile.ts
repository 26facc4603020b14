// bench/import/profile.ts: where the import time goes on PostgreSQL. Same dataset as run.ts, uploaded
// in batches of 1,000 so the rate per batch shows whether the cost grows with the rows already
// stored; pg_stat_statements (enabled on the throwaway cluster, which is restarted for it) for the
// statements, a V8 CPU profile of the server for the JavaScript. Run with
// `bash ../scripts/with-postgres.sh tsx import/profile.ts` (needs PG_TEST_CTL from that script).
// LIMIT=n imports only the first n documents. USER_UUID_INDEX=1 first creates an index on cfdis (user_id, uuid), to measure what it would change.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import postgres from 'postgres';
import { printCpuProfile } from '../lib/cpuprofile';
import { cpuMs, postgresCpuMs } from '../lib/proc';
import { rawRequest, signIn, startFolio } from '../lib/server';
import { machine } from '../lib/stats';
import { buildDataset, createProfile } from './dataset';

const BATCH = Number(process.env.BATCH ?? 1000);
const url = process.env.TEST_DATABASE_URL;
const ctl = process.env.PG_TEST_CTL;
if (!url || !ctl) {
  console.error('run under scripts/with-postgres.sh (needs TEST_DATABASE_URL and PG_TEST_CTL)');
  process.exit(2);
}
console.log(
  `bench/import/profile on ${machine()}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

let sql = postgres(url, { max: 1, onnotice: () => {} });
await sql`alter system set shared_preload_libraries = 'pg_stat_statements'`;
await sql.end();
execFileSync(ctl, ['restart', '-m', 'fast'], { stdio: 'ignore' });
sql = postgres(url, { max: 1, onnotice: () => {} });
await sql`create extension if not exists pg_stat_statements`;

const docs = buildDataset().docs.slice(0, Number(process.env.LIMIT ?? 10_000));
const profDir = mkdtempSync(join(os.tmpdir(), 'folio-cpuprof-'));
const server = await startFolio({ DATABASE_URL: url, TRUST_PROXY: 'true' }, [
  '--cpu-prof',
  `--cpu-prof-dir=${profDir}`,
]);
try {
  const { token, userId } = await signIn(server.url, `bench-${Date.now()}@example.com`, '10.9.0.2');
  const profileId = await createProfile(server.url, token);
  await sql`insert into subscriptions (user_id, plan, status) values (${userId}, 'PRO', 'ACTIVE')`;
  if (process.env.USER_UUID_INDEX === '1') {
    await sql`create index cfdis_bench_user_uuid_idx on cfdis (user_id, uuid)`;
    console.log('experiment: index cfdis (user_id, uuid) created before the import');
  }
  await sql`select pg_stat_statements_reset()`;
  const [cpu0, pg0] = [cpuMs(server.pid), postgresCpuMs(process.env.PG_TEST_DATA)];

  let wallTotal = 0;
  for (let i = 0; i < docs.length; i += BATCH) {
    const zip = zipSync(Object.fromEntries(docs.slice(i, i + BATCH).map((d) => [d.name, strToU8(d.xml)])));
    const form = new FormData();
    form.append('files', new File([new Uint8Array(zip)], `lote-${i / BATCH + 1}.zip`));
    const multipart = new Response(form);
    const body = new Uint8Array(await multipart.arrayBuffer());
    const t0 = performance.now();
    const res = await rawRequest(
      `${server.url}/api/profiles/${profileId}/cfdi`,
      'POST',
      { authorization: `Bearer ${token}`, 'content-type': multipart.headers.get('content-type')! },
      body,
    );
    const ms = performance.now() - t0;
    wallTotal += ms;
    const { data } = JSON.parse(res.text) as { data: { imported: number; rejected: number } };
    console.log(
      `batch ${String(i / BATCH + 1).padStart(2)}: rows before ${String(i).padStart(5)}  ${data.imported} imported ` +
        `${data.rejected} rejected in ${(ms / 1000).toFixed(2)} s = ${(data.imported / (ms / 1000)).toFixed(0)} docs/s ` +
        `(${(ms / data.imported).toFixed(2)} ms/doc; load ${os.loadavg()[0]!.toFixed(2)})`,
    );
  }

  const [cpu, pg] = [cpuMs(server.pid) - cpu0, postgresCpuMs(process.env.PG_TEST_DATA) - pg0];
  console.log(
    `\ntotal ${(wallTotal / 1000).toFixed(1)} s = ${(docs.length / (wallTotal / 1000)).toFixed(0)} docs/s; per document: wall ` +
      `${(wallTotal / docs.length).toFixed(2)} ms, server CPU ${(cpu / docs.length).toFixed(2)} ms, PostgreSQL CPU ` +
      `${(pg / docs.length).toFixed(2)} ms (all backends)`,
  );
  // What one statement costs on this machine now, from a client like the server's (postgres.js).
  const rt = postgres(url, { max: 1, onnotice: () => {} });
  await rt`select 1`;
  let t = performance.now();
  for (let i = 0; i < 2000; i++) await rt`select 1`;
  const selectOne = (performance.now() - t) / 2000;
  t = performance.now();
  for (let i = 0; i < 500; i++)
    await rt.begin(async (tx) => {
      await tx`select 1`;
    });
  const txOne = (performance.now() - t) / 500;
  await rt.end();
  console.log(
    `round trip now: select 1 ${selectOne.toFixed(3)} ms; begin + select 1 + commit ${txOne.toFixed(3)} ms`,
  );

  const stmts = await sql<
    { query: string; calls: string; total: number; mean: number; rows: string }[]
  >`select query, calls, total_exec_time as total, mean_exec_time as mean, rows
    from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
    order by total_exec_time desc limit 14`;
  const [sum] = await sql<{ calls: string; total: number }[]>`
    select sum(calls) as calls, sum(total_exec_time) as total from pg_stat_statements
    where dbid = (select oid from pg_database where datname = current_database())`;
  console.log(
    `\nall statements: ${sum!.calls} calls (${(Number(sum!.calls) / docs.length).toFixed(1)} per document), ` +
      `${(sum!.total / 1000).toFixed(1)} s executing in PostgreSQL of ${(wallTotal / 1000).toFixed(1)} s wall ` +
      `(${(sum!.total / docs.length).toFixed(2)} of ${(wallTotal / docs.length).toFixed(2)} ms per document)`,
  );
  console.log('top statements by total execution time:');
  for (const s of stmts) {
    console.log(
      `  ${(s.total / 1000).toFixed(2).padStart(7)} s  ${String(s.calls).padStart(6)} calls  mean ${s.mean.toFixed(3).padStart(7)} ms  ` +
        s.query.replace(/\s+/g, ' ').slice(0, 150),
    );
  }

  // The duplicate-UUID check, on the rows now stored.
  const [some] = await sql<{ uuid: string }[]>`select uuid from cfdis order by created_at limit 1`;
  const plan = await sql.unsafe(
    `explain (analyze, buffers) select "id" from "cfdis" where ("cfdis"."user_id" = $1 and "cfdis"."uuid" = $2 and "cfdis"."profile_id" <> $3) limit $4`,
    [userId, some!.uuid, profileId, 1],
  );
  console.log('\nuuidInOtherProfile (packages/db/src/queries/cfdis.ts) on the stored rows:');
  for (const r of plan) console.log(`  ${Object.values(r)[0]}`);
} finally {
  await server.stop();
  await sql.end();
}

printCpuProfile(profDir, 'server CPU profile');
rmSync(profDir, { recursive: true, force: true });
