import type { DbHandle, Executor } from '@folio/db';
import PgBoss from 'pg-boss';
import type { Logger } from '../../context';
import { executorDb, pgliteDb, stableJobId } from './sql-adapters';

/** Job names and their payloads: `{ 'email.send': { emailId: string } }`. */
export type JobMap = Record<string, object>;

/** What a handler learns about the job it runs, and the queue (to enqueue follow-up jobs). */
export interface JobRun<M extends JobMap> {
  id: string;
  name: keyof M & string;
  /** 0 on the first run, n on the n-th retry. */
  retryCount: number;
  queue: JobQueue<M>;
}

/**
 * A job succeeds when its handler resolves; a throw is a failure, retried while retries remain. Jobs
 * run at least once (a process may die after the work and before recording it), so a handler must
 * make a repeat harmless (the mail's idempotency key, an import's duplicate check).
 */
export type JobHandler<M extends JobMap, K extends keyof M> = (
  payload: M[K],
  run: JobRun<M>,
) => Promise<void>;

export interface RetryPolicy {
  /** Retries after the first run (default 2). */
  retryLimit?: number;
  /** Seconds before a retry (default 0); with `retryBackoff` the base of an exponential, jittered delay. */
  retryDelay?: number;
  retryBackoff?: boolean;
}

export interface QueueSpec<M extends JobMap, K extends keyof M> extends RetryPolicy {
  handler: JobHandler<M, K>;
  /** pg-boss's queue policy (default `standard`); `short` and `singleton` give `singletonKey` its meaning. */
  policy?: PgBoss.QueuePolicy;
  /** Jobs of this name running at once in this process (default 1). */
  concurrency?: number;
  /**
   * Jobs a worker takes per fetch and runs one after another (default 5). Taken jobs are active,
   * so long jobs want 1: a stop fails (and later retries) every taken job not yet run.
   */
  batchSize?: number;
  /** A running job not finished after this long counts as failed (and is retried); default 15 minutes. */
  expireInSeconds?: number;
  /** Sends one job (payload `{}`) on this cron schedule, once across all processes. */
  cron?: { expression: string; tz?: string };
}

export type QueueSpecs<M extends JobMap> = { [K in keyof M]: QueueSpec<M, K> };

export interface EnqueueOptions extends RetryPolicy {
  /**
   * The caller's transaction: the job exists exactly when it commits. Inside a transaction always
   * pass it: on PGlite's one connection a queue call without it waits for that transaction to end,
   * which waits for the call (a deadlock); on PostgreSQL it would commit on its own.
   */
  tx?: Executor;
  /** Not before this time (a Date) or this many seconds from now. */
  startAfter?: Date | number;
  /**
   * On a queue whose policy is `short`, a job is not created while another with this key waits; on
   * `singleton`, jobs with one key run one at a time (pg-boss's queue policies).
   */
  singletonKey?: string;
  /** An explicit id (UUID); a second send with the same id is a no-op. */
  id?: string;
}

/** Where the queue keeps its tables: PGlite's one connection, or its own pool on PostgreSQL. */
export type JobSource =
  | { kind: 'pglite'; pglite: Parameters<typeof pgliteDb>[0] }
  | { kind: 'postgres'; url: string; max?: number };

/** The queue beside an open database: on its PGlite instance, or on the same PostgreSQL. */
export function jobSource(handle: DbHandle): JobSource {
  if (handle.pglite) return { kind: 'pglite', pglite: handle.pglite };
  if (handle.databaseUrl) return { kind: 'postgres', url: handle.databaseUrl };
  throw new Error('jobSource: the database handle has neither a PGlite instance nor a URL');
}

export interface JobQueueOptions<M extends JobMap> {
  source: JobSource;
  queues: QueueSpecs<M>;
  log: Logger;
  /** Run handlers in this process (default true); false only sends (scripts). */
  work?: boolean;
  /** How often an idle worker looks for due jobs (default 2 s; `wake` skips the wait). */
  pollingIntervalSeconds?: number;
  /** The clock `oncePerDay` reads when no day is given. */
  now?: () => Date;
  /**
   * How often (seconds, default 120) the queue looks, once across processes, for jobs whose process
   * died while running them (active past their `expireInSeconds`) and schedules their retry.
   */
  maintenanceIntervalSeconds?: number;
}

export interface JobQueue<M extends JobMap> {
  /** Creates or migrates the queue's schema (pg-boss's own migrations), its queues, and starts workers. */
  start(): Promise<void>;
  /** Stops taking jobs, waits for those running (up to 8 s), and releases the connections it opened. */
  stop(): Promise<void>;
  /** Sends a job; resolves to its id, or null when an equal job (id or singleton key) already exists. */
  enqueue<K extends keyof M & string>(name: K, payload: M[K], opts?: EnqueueOptions): Promise<string | null>;
  /**
   * At most one job of `name` per `key` per day (Mexico City's calendar unless `day`, YYYY-MM-DD, is
   * given): the second call that day resolves to null, whatever became of the first job.
   */
  oncePerDay<K extends keyof M & string>(
    name: K,
    key: string,
    payload: M[K],
    opts?: EnqueueOptions & { day?: string },
  ): Promise<string | null>;
  /** Makes this process's idle workers of `name` look for jobs now (after a commit that enqueued one). */
  wake(name: keyof M & string): void;
  /** A job's state, for status pages and tests; null once it has been deleted (after 7 days). */
  job(name: keyof M & string, id: string): Promise<JobState | null>;
}

export interface JobState {
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  retryCount: number;
  startAfter: Date;
  data: unknown;
}

/** Archived jobs are kept this long: `oncePerDay` finds the day's job there after it finished. */
const KEEP_DAYS = 7;
const MEXICO_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' });

export function createJobQueue<M extends JobMap>(opts: JobQueueOptions<M>): JobQueue<M> {
  const { source, log } = opts;
  const specs = Object.entries(opts.queues) as [keyof M & string, QueueSpec<M, keyof M>][];
  const boss = new PgBoss({
    ...(source.kind === 'pglite'
      ? { db: pgliteDb(source.pglite) }
      : { connectionString: source.url, max: source.max ?? 4, application_name: 'folio-jobs' }),
    migrate: true,
    supervise: true,
    schedule: specs.some(([, s]) => s.cron),
    deleteAfterDays: KEEP_DAYS,
    ...(opts.maintenanceIntervalSeconds
      ? { maintenanceIntervalSeconds: opts.maintenanceIntervalSeconds }
      : {}),
  });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  const workers = new Map<string, string[]>();
  const now = opts.now ?? (() => new Date());

  // pg-boss checks the options present, so absent ones must be left out rather than undefined.
  const sendOptions = ({ tx, ...o }: EnqueueOptions = {}): PgBoss.SendOptions => {
    const given = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
    return tx ? { ...given, db: executorDb(tx) } : given;
  };

  async function runBatch(
    name: keyof M & string,
    handler: JobHandler<M, keyof M>,
    jobs: PgBoss.JobWithMetadata<M[keyof M]>[],
  ) {
    // Each job completes or fails on its own (pg-boss would fail the whole batch on one throw).
    for (const job of jobs) {
      try {
        await handler(job.data, { id: job.id, name, retryCount: job.retryCount, queue });
        await boss.complete(name, job.id);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        log.warn({ job: name, jobId: job.id, retryCount: job.retryCount, error: message }, 'job failed');
        await boss.fail(name, job.id, { message });
      }
    }
  }

  const queue: JobQueue<M> = {
    async start() {
      await boss.start();
      for (const [name, spec] of specs) {
        const policy: PgBoss.Queue = {
          name,
          policy: spec.policy ?? 'standard',
          retryLimit: spec.retryLimit ?? 2,
          retryDelay: spec.retryDelay ?? 0,
          retryBackoff: spec.retryBackoff ?? false,
          expireInSeconds: spec.expireInSeconds ?? 15 * 60,
        };
        await boss.createQueue(name, policy);
        await boss.updateQueue(name, policy); // a changed policy applies to a queue created earlier
        if (spec.cron) await boss.schedule(name, spec.cron.expression, {}, { tz: spec.cron.tz ?? 'UTC' });
        else await boss.unschedule(name);
      }
      if (opts.work === false) return;
      for (const [name, spec] of specs) {
        const batchSize = spec.batchSize ?? 5;
        const ids: string[] = [];
        for (let i = 0; i < (spec.concurrency ?? 1); i++) {
          let id = '';
          id = await boss.work<M[keyof M]>(
            name,
            { batchSize, includeMetadata: true, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 },
            async (jobs) => {
              await runBatch(name, spec.handler, jobs);
              // A full batch means more may be waiting: fetch again at once instead of after the interval.
              if (jobs.length === batchSize) boss.notifyWorker(id);
            },
          );
          ids.push(id);
        }
        workers.set(name, ids);
      }
    },
    async stop() {
      workers.clear();
      // Within the server's 10 s shutdown: a job still running then is failed and retried later.
      await boss.stop({ graceful: true, wait: true, timeout: 8_000 });
    },
    enqueue: (name, payload, o) => boss.send(name, payload, sendOptions(o)),
    async oncePerDay(name, key, payload, o = {}) {
      const day = o.day ?? MEXICO_DAY.format(now());
      const id = stableJobId(name, key, day);
      const db = o.tx ? executorDb(o.tx) : undefined;
      // The day's job may have finished and moved to the archive, where a send would not see it.
      if (await boss.getJobById(name, id, { includeArchive: true, db })) return null;
      return boss.send(name, payload, { ...sendOptions(o), id });
    },
    wake(name) {
      for (const id of workers.get(name) ?? []) boss.notifyWorker(id);
    },
    async job(name, id) {
      const job = await boss.getJobById<unknown>(name, id, { includeArchive: true });
      return (
        job && { state: job.state, retryCount: job.retryCount, startAfter: job.startAfter, data: job.data }
      );
    },
  };
  return queue;
}
