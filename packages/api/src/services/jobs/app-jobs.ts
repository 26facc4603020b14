import type { DbHandle } from '@folio/db';
import type { MailSender } from '@folio/email';
import type { Logger } from '../../context';
import { type SyncJobs, type SyncQueueOptions, syncQueues } from '../sat-sync/sync-queue';
import { createMailKicker, type MailJobs, type MailKicker, mailQueues } from './mail-jobs';
import { createJobQueue, type JobQueue, jobSource, type QueueSpecs } from './queue';

/** Every job the service runs, by name. The SAT sync and webhook deliveries add theirs here. */
export type AppJobs = MailJobs & SyncJobs;

export interface AppJobsOptions {
  handle: DbHandle;
  sender: MailSender;
  log: Logger;
  /** Idle workers look for due jobs this often (seconds; default 2). */
  pollingIntervalSeconds?: number;
  /** The SAT sync's workers (absent: this runner sends no sync jobs and runs none). */
  sync?: SyncQueueOptions;
}

export interface AppJobRunner {
  queue: JobQueue<AppJobs>;
  mail: MailKicker;
  /** Starts the queue (creating or migrating its schema) and queues mail left without a job. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The queue with the service's workers; apps/api starts it with the server and stops it on shutdown. */
export function createAppJobs(opts: AppJobsOptions): AppJobRunner {
  const queue = createJobQueue<AppJobs>({
    source: jobSource(opts.handle),
    queues: {
      ...mailQueues(opts.handle.db, opts.sender),
      ...(opts.sync ? syncQueues(opts.sync) : {}),
    } as unknown as QueueSpecs<AppJobs>,
    log: opts.log,
    pollingIntervalSeconds: opts.pollingIntervalSeconds,
  });
  const mail = createMailKicker({
    db: opts.handle.db,
    queue,
    maxAttempts: opts.sender.maxAttempts,
    log: opts.log,
  });
  return {
    queue,
    mail,
    async start() {
      await queue.start();
      await mail.adopt();
    },
    async stop() {
      await mail.stop();
      await queue.stop();
    },
  };
}
