// bench/job-queue: the job queue (pg-boss through packages/api/src/services/jobs) on PGlite and, under
// scripts/with-postgres.sh, on PostgreSQL: enqueue→start latency of one job at a time (woken, as
// the mail kick does, and left to the 2 s poll), throughput of trivial jobs (sent one statement
// each, then run by 1 and by 4 workers), and the process's memory around it. JOBS sets the count.
import os from 'node:os';
import { createJobQueue, type JobQueue, jobSource } from '@folio/api';
import { type DbHandle, openDb } from '@folio/db';
import { machine, summarize } from '../lib/stats';

const JOBS = Number(process.env.JOBS ?? 2000);
const LATENCY_SAMPLES = 100;
const POLLED_SAMPLES = 10;
type Bench = { 'bench.noop': { i: number; sentAt: number } };
const silent = { info() {}, warn() {}, error() {} };
const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function measure(label: string, handle: DbHandle) {
  const started: number[] = [];
  let done = 0;
  let onDone: (() => void) | undefined;
  const queue = (concurrency: number): JobQueue<Bench> =>
    createJobQueue<Bench>({
      source: jobSource(handle),
      log: silent,
      queues: {
        'bench.noop': {
          concurrency,
          handler: async ({ sentAt }) => {
            started.push(performance.now() - sentAt);
            if (++done === target) onDone?.();
          },
        },
      },
    });
  let target = 0;
  const until = (n: number) =>
    new Promise<void>((resolve) => {
      target = n;
      onDone = resolve;
      if (done >= n) resolve();
    });

  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const q1 = queue(1);
  await q1.start();
  const startMs = performance.now() - t0;

  // Latency, woken: send, then wake the worker (what the mail kick does after a commit).
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const wait = until(done + 1);
    await q1.enqueue('bench.noop', { i, sentAt: performance.now() });
    q1.wake('bench.noop');
    await wait;
  }
  const woken = summarize(started.splice(0));
  // Latency, polled: another process sent it; the worker finds it at its next poll (every 2 s).
  for (let i = 0; i < POLLED_SAMPLES; i++) {
    await new Promise((r) => setTimeout(r, Math.random() * 500));
    const wait = until(done + 1);
    await q1.enqueue('bench.noop', { i, sentAt: performance.now() });
    await wait;
  }
  const polled = summarize(started.splice(0));
  await q1.stop();

  const through: string[] = [];
  for (const workers of [1, 4]) {
    const sender = createJobQueue<Bench>({
      source: jobSource(handle),
      log: silent,
      queues: { 'bench.noop': { handler: async () => {} } },
      work: false,
    });
    await sender.start();
    const s0 = performance.now();
    for (let i = 0; i < JOBS; i++) await sender.enqueue('bench.noop', { i, sentAt: 0 });
    const sendS = (performance.now() - s0) / 1000;
    await sender.stop();
    const q = queue(workers);
    const wait = until(done + JOBS);
    const r0 = performance.now();
    await q.start();
    await wait;
    const runS = (performance.now() - r0) / 1000;
    await q.stop();
    started.length = 0;
    through.push(
      `  ${JOBS} jobs, ${workers} worker(s): sent ${(JOBS / sendS).toFixed(0)}/s, run ${(JOBS / runS).toFixed(0)}/s`,
    );
  }
  const rss1 = process.memoryUsage().rss;
  console.log(`${label}: queue start (schema create/check + workers) ${startMs.toFixed(0)} ms`);
  console.log(
    `  enqueue→start, woken:  p50 ${woken.p50.toFixed(1)} ms, p95 ${woken.p95.toFixed(1)} ms, max ${woken.max.toFixed(1)} ms (n=${woken.n})`,
  );
  console.log(
    `  enqueue→start, polled: p50 ${polled.p50.toFixed(0)} ms, max ${polled.max.toFixed(0)} ms (n=${polled.n})`,
  );
  for (const line of through) console.log(line);
  console.log(`  RSS ${mb(rss0)} → ${mb(rss1)} (process, database included for PGlite)`);
}

console.log(`${new Date().toISOString()} · ${machine()} · load ${load()}`);
const pglite = await openDb({});
await measure('PGlite (in memory)', pglite);
await pglite.close();
const url = process.env.TEST_DATABASE_URL;
if (url) {
  const pg = await openDb({ databaseUrl: url, poolMax: 4 });
  await measure('PostgreSQL 15', pg);
  await pg.close();
}
console.log(`load after ${load()}`);
