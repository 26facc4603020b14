import type { DbHandle } from '@folio/db';
import type { MailSender } from '@folio/email';
import type { Logger } from '../../context';
import type { EfirmaKeyring } from '../efirma/keyring';
import { type SyncJobs, type SyncQueueOptions, syncQueues } from '../sat-sync/sync-queue';
import {
  createWebhookSweeper,
  type WebhookJobs,
  type WebhookSweeper,
  webhookQueues,
} from '../webhooks/delivery-jobs';
import { createMailKicker, type MailJobs, type MailKicker, mailQueues } from './mail-jobs';
import { createJobQueue, type JobQueue, jobSource, type QueueSpecs } from './queue';

/** Every job the service runs, by name. */
export type AppJobs = MailJobs & WebhookJobs & SyncJobs;

export interface AppJobsOptions {
  handle: DbHandle;
  sender: MailSender;
  log: Logger;
  /** Idle workers look for due jobs this often (seconds; default 2). */
  pollingIntervalSeconds?: number;
  /** Outgoing webhooks: the keyring that opens their secrets, and production's SSRF guard. */
  webhooks: {
    keyring: EfirmaKeyring;
    production: boolean;
    /** A receiver's time to answer (default 10 s; tests shorten it). */
    timeoutMs?: number;
    /** How often pending deliveries are given their jobs (default 2 s). */
    sweepMs?: number;
  };
  /** The SAT sync's workers (absent: this runner sends no sync jobs and runs none). */
  sync?: SyncQueueOptions;
}

export interface AppJobRunner {
  queue: JobQueue<AppJobs>;
  mail: MailKicker;
  webhooks: WebhookSweeper;
  /** Starts the queue (creating or migrating its schema) and queues mail and deliveries left without a job. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The queue with the service's workers; apps/api starts it with the server and stops it on shutdown. */
export function createAppJobs(opts: AppJobsOptions): AppJobRunner {
  const queue = createJobQueue<AppJobs>({
    source: jobSource(opts.handle),
    // Each queue family's map is typed for its own jobs; its handlers enqueue only those, so the wider map is safe.
    queues: {
      ...mailQueues(opts.handle.db, opts.sender),
      ...webhookQueues<AppJobs>({
        db: opts.handle.db,
        log: opts.log,
        keyring: opts.webhooks.keyring,
        production: opts.webhooks.production,
        timeoutMs: opts.webhooks.timeoutMs,
        kickEmail: () => mail.kick(),
      }),
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
  const webhooks = createWebhookSweeper({
    db: opts.handle.db,
    queue,
    log: opts.log,
    everyMs: opts.webhooks.sweepMs,
  });
  return {
    queue,
    mail,
    webhooks,
    async start() {
      await queue.start();
      await mail.adopt();
      await webhooks.sweep();
      webhooks.start();
    },
    async stop() {
      await webhooks.stop();
      await mail.stop();
      await queue.stop();
    },
  };
}
