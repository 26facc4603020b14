import { findSyncJob } from '@folio/db/queries/sat-sync';
import type { Deps } from '../../context';
import { mailExpiringEfirmas } from '../efirma/expiry-notice';
import type { JobQueue, QueueSpecs } from '../jobs/queue';
import { enqueueDailySyncs } from './daily-sync';
import { endSyncJob } from './end-sync-job';
import { runSyncStep, type SyncTiming } from './run-sync';
import type { SyncJobs } from './sync-job-names';

export { DAILY_SYNC_JOB, SYNC_JOB, type SyncJobSender, type SyncJobs } from './sync-job-names';

// The SAT sync on the job queue (docs/sat-sync.md#sync-jobs). A `sat.sync` job runs the steps of
// one sync job that can run now and, when SAT asks it to wait, enqueues the next `sat.sync` of that
// job at the time to look again; the job's rows say where it is, so a restart resumes it.

export interface SyncQueueOptions {
  /** The service's dependencies (a getter: the app builds them after the queue). */
  deps: () => Deps;
  timing?: Partial<SyncTiming>;
  /** The daily schedule's cron (Mexico City); default 06:00. */
  dailyCron?: string;
}

export function syncQueues(opts: SyncQueueOptions): QueueSpecs<SyncJobs> {
  const retryLimit = opts.timing?.retryLimit ?? 8;
  return {
    'sat.sync': {
      // A throw is SAT unreachable or failing on its side (SatUnavailable, 404, 5006): retried with
      // back-off; a job's own waits (polling, SAT's daily limit) are follow-up jobs, not retries.
      retryLimit,
      retryDelay: opts.timing?.retryDelaySeconds ?? 60,
      retryBackoff: true,
      batchSize: 1,
      expireInSeconds: 60 * 60,
      handler: async (payload, run) => {
        const deps = opts.deps();
        try {
          await runSyncStep(deps, payload, run.queue as unknown as JobQueue<SyncJobs>, opts.timing);
        } catch (err) {
          // The queue's last retry: the job ends `error` instead of staying half-way for good.
          if (run.retryCount < retryLimit) throw err;
          const message = err instanceof Error ? err.message : String(err);
          const job = await findSyncJob(deps.db, payload.jobId);
          if (job) await endSyncJob(deps.db, job, `SAT kept failing: ${message}`);
        }
      },
    },
    'sat.daily': {
      cron: { expression: opts.dailyCron ?? '0 6 * * *', tz: 'America/Mexico_City' },
      handler: async (_, run) => {
        await enqueueDailySyncs(opts.deps(), run.queue as unknown as JobQueue<SyncJobs>);
      },
    },
    'efirma.expiry': {
      // 09:00 Mexico City: an hour for mail.
      cron: { expression: '0 9 * * *', tz: 'America/Mexico_City' },
      handler: async () => {
        await mailExpiringEfirmas(opts.deps(), opts.timing?.now?.() ?? new Date());
      },
    },
  };
}
