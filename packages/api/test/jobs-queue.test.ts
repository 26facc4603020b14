import { type DbHandle, openDb } from '@folio/db';
import { testDb } from '@folio/db/testing/vitest';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createJobQueue,
  type JobQueue,
  type JobQueueOptions,
  jobSource,
  type QueueSpecs,
} from '../src/services/jobs/queue';

// The job queue (pg-boss) on this file's database, PGlite or PostgreSQL: jobs outlive the process
// that sent them, failures are retried with a growing delay, two workers never run one job, and
// `oncePerDay` gives one job per key per calendar day.

type TestJobs = { 'test.count': { n: number }; 'test.flaky': { failures: number }; 'test.daily': object };
const silent = { info() {}, warn() {}, error() {} };

let handle: DbHandle;
const open: JobQueue<TestJobs>[] = [];
beforeAll(async () => {
  handle = await testDb();
});
afterAll(async () => {
  for (const q of open) await q.stop();
  await handle?.close();
});

/** Runs of each payload `n` of test.count, across every queue of the test. */
let runs = new Map<number, number>();
const noop = async () => {};
function queues(overrides: Partial<QueueSpecs<TestJobs>> = {}): QueueSpecs<TestJobs> {
  return {
    'test.count': {
      handler: async ({ n }) => {
        runs.set(n, (runs.get(n) ?? 0) + 1);
      },
    },
    'test.flaky': { handler: noop },
    'test.daily': { handler: noop },
    ...overrides,
  };
}
async function startQueue(
  opts: Partial<JobQueueOptions<TestJobs>> = {},
  on: DbHandle = handle,
): Promise<JobQueue<TestJobs>> {
  const q = createJobQueue<TestJobs>({
    source: jobSource(on),
    queues: queues(),
    log: silent,
    pollingIntervalSeconds: 0.5,
    ...opts,
  });
  await q.start();
  open.push(q);
  return q;
}
async function stopQueue(q: JobQueue<TestJobs>) {
  await q.stop();
  open.splice(open.indexOf(q), 1);
}

describe('a job outlives the server that enqueued it', () => {
  it('enqueued by a server that then stopped, it runs exactly once on the next start', async () => {
    runs = new Map();
    // The first server only sends (as a process stopped before its workers got to the job would).
    const first = await startQueue({ work: false });
    const id = await first.enqueue('test.count', { n: 1 });
    await stopQueue(first);

    // On PGlite "the same data" is a new database opened from a dump of the old one's files.
    let data = handle;
    if (handle.pglite) {
      const dump = await handle.pglite.dumpDataDir('gzip');
      data = await openDb({ pgliteLoadDataDir: dump, migrate: false });
    }
    try {
      const second = await startQueue({}, data);
      await vi.waitFor(async () => expect((await second.job('test.count', id!))?.state).toBe('completed'), {
        timeout: 10_000,
      });
      expect(runs.get(1)).toBe(1);
      // A third start finds nothing left to do.
      await stopQueue(second);
      const third = await startQueue({}, data);
      await third.enqueue('test.count', { n: 2 });
      await vi.waitFor(() => expect(runs.get(2)).toBe(1), { timeout: 10_000 });
      expect(runs.get(1)).toBe(1);
      await stopQueue(third);
    } finally {
      if (data !== handle) await data.close();
    }
  });
});

describe('a process that dies while running a job', () => {
  it('leaves the job active; once its expiry has passed the queue retries it and another server runs it, once', async () => {
    runs = new Map();
    const first = await startQueue({ work: false });
    const id = await first.enqueue('test.count', { n: 500 });
    await stopQueue(first);
    // What a worker killed mid-job leaves behind: the job taken (active) an hour ago, never finished;
    // its expiry is the queue's default, 15 minutes.
    await handle.db.execute(
      sql`update pgboss.job set state = 'active', started_on = now() - interval '1 hour' where id = ${id}::uuid`,
    );
    const second = await startQueue({ maintenanceIntervalSeconds: 1 });
    await vi.waitFor(async () => expect((await second.job('test.count', id!))?.state).toBe('completed'), {
      timeout: 15_000,
    });
    expect(runs.get(500)).toBe(1);
    expect((await second.job('test.count', id!))?.retryCount).toBe(1);
    await stopQueue(second);
  });
});

describe('retries', () => {
  it('a failing job is retried after a delay that doubles (retryDelay 1 s, back-off), then succeeds', async () => {
    const seen: { retryCount: number; startAfter: number }[] = [];
    const failedAt: number[] = [];
    const q = await startQueue({
      queues: queues({
        'test.flaky': {
          retryLimit: 3,
          retryDelay: 1,
          retryBackoff: true,
          handler: async ({ failures }, run) => {
            const job = await run.queue.job('test.flaky', run.id);
            seen.push({ retryCount: run.retryCount, startAfter: job!.startAfter.getTime() });
            if (run.retryCount < failures) {
              failedAt.push(Date.now());
              throw new Error(`SAT no contesta (intento ${run.retryCount + 1})`);
            }
          },
        },
      }),
    });
    const id = await q.enqueue('test.flaky', { failures: 2 });
    await vi.waitFor(async () => expect((await q.job('test.flaky', id!))?.state).toBe('completed'), {
      timeout: 15_000,
    });
    expect(seen.map((s) => s.retryCount)).toEqual([0, 1, 2]);
    // pg-boss's back-off: retry n waits retryDelay × 2^n / 2 × (1 + jitter in [0, 1)) seconds, so
    // the first retry at least 1 × 2 / 2 = 1 s after the failure, the second at least 1 × 4 / 2 = 2 s.
    // (The failure is recorded just after `failedAt`, so the gap is at least the delay.)
    expect(seen[1]!.startAfter - failedAt[0]!).toBeGreaterThanOrEqual(1000);
    expect(seen[2]!.startAfter - failedAt[1]!).toBeGreaterThanOrEqual(2000);
    await stopQueue(q);
  });

  it('a job that keeps failing stops after retryLimit retries and is recorded as failed', async () => {
    const q = await startQueue({
      queues: queues({
        'test.flaky': {
          retryLimit: 1,
          handler: async () => {
            throw new Error('no');
          },
        },
      }),
    });
    const id = await q.enqueue('test.flaky', { failures: 9 });
    await vi.waitFor(async () => expect((await q.job('test.flaky', id!))?.state).toBe('failed'), {
      timeout: 10_000,
    });
    expect((await q.job('test.flaky', id!))?.retryCount).toBe(1);
    await stopQueue(q);
  });
});

describe('enqueue inside the caller transaction', () => {
  it('a rolled-back transaction leaves no job; a committed one leaves exactly its job', async () => {
    const q = await startQueue({ work: false });
    let rolledBack: string | null = null;
    await expect(
      handle.db.transaction(async (tx) => {
        rolledBack = await q.enqueue('test.count', { n: 100 }, { tx, startAfter: 3600 });
        throw new Error('the caller failed');
      }),
    ).rejects.toThrow('the caller failed');
    expect(rolledBack).toMatch(/^[0-9a-f-]{36}$/);
    expect(await q.job('test.count', rolledBack!)).toBeNull();

    const kept = await handle.db.transaction((tx) =>
      q.enqueue('test.count', { n: 101 }, { tx, startAfter: 3600 }),
    );
    expect(await q.job('test.count', kept!)).toMatchObject({ state: 'created', data: { n: 101 } });
    await stopQueue(q);
  });
});

describe('two workers (two processes on PostgreSQL: two pools) never run one job twice', () => {
  it('40 jobs, two queues with two workers each: every handler ran exactly once', async () => {
    runs = new Map();
    const sender = await startQueue({ work: false });
    const N = 40;
    for (let n = 1000; n < 1000 + N; n++) await sender.enqueue('test.count', { n });
    await stopQueue(sender);
    const spec = (): QueueSpecs<TestJobs> =>
      queues({
        'test.count': {
          concurrency: 2,
          handler: async ({ n }) => {
            runs.set(n, (runs.get(n) ?? 0) + 1);
            await new Promise((r) => setTimeout(r, 5)); // long enough for the other workers to poll meanwhile
          },
        },
      });
    const [a, b] = await Promise.all([startQueue({ queues: spec() }), startQueue({ queues: spec() })]);
    await vi.waitFor(() => expect(runs.size).toBe(N), { timeout: 20_000 });
    await Promise.all([stopQueue(a), stopQueue(b)]);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(runs.size).toBe(N);
  });
});

describe('oncePerDay (the PRO daily sync: one job per profile per day)', () => {
  it("one job per key per Mexico City calendar day, whether or not the day's job has run", async () => {
    let clock = new Date('2026-03-10T05:30:00Z'); // 23:30 on 9 March in Mexico City (UTC−6)
    const q = await startQueue({ work: false, now: () => clock });
    const first = await q.oncePerDay('test.daily', 'profile-a', {});
    expect(first).not.toBeNull();
    expect(await q.oncePerDay('test.daily', 'profile-a', {})).toBeNull();
    // Another key the same day gets its own job.
    expect(await q.oncePerDay('test.daily', 'profile-b', {})).not.toBeNull();
    // The day's job finished: still none until the next day.
    await handle.db.execute(
      sql`update pgboss.job set state = 'completed', completed_on = now() where id = ${first}::uuid`,
    );
    clock = new Date('2026-03-10T05:59:59Z'); // 23:59:59 on 9 March
    expect(await q.oncePerDay('test.daily', 'profile-a', {})).toBeNull();
    clock = new Date('2026-03-10T06:00:00Z'); // 00:00 on 10 March in Mexico City
    const next = await q.oncePerDay('test.daily', 'profile-a', {});
    expect(next).not.toBeNull();
    expect(next).not.toBe(first);
    // An explicit day overrides the clock.
    expect(await q.oncePerDay('test.daily', 'profile-a', {}, { day: '2026-03-09' })).toBeNull();
    expect(await q.oncePerDay('test.daily', 'profile-a', {}, { day: '2026-03-11' })).not.toBeNull();
    await stopQueue(q);
  });
});
