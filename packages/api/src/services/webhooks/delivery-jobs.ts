import { markQueued, unqueuedDeliveries } from '@folio/db/queries/webhooks';
import type { Logger } from '../../context';
import type { JobQueue, QueueSpecs } from '../jobs/queue';
import { orderedJobId } from '../jobs/sql-adapters';
import { type DeliveryDeps, deliverAttempt } from './deliver';

// Webhook deliveries on the job queue. Events and their delivery rows are written in the transaction
// of the change (outbox); the sweep gives each pending row a `webhook.deliver` job for its next
// attempt, in one transaction with recording that it did, so no row is left without one and none
// gets two. The emitting services need not know the queue: the sweep runs at start and every few
// seconds.

export type WebhookJobs = {
  /** `createdAt` orders the jobs of one instant (orderedJobId); `attempt` is the one to make (0 = first). */
  'webhook.deliver': { deliveryId: string; createdAt: string; attempt: number };
};

const jobId = (deliveryId: string, attempt: number, at: Date) =>
  orderedJobId(at, 'webhook.deliver', deliveryId, String(attempt));

/** The delivery queue, for a queue whose jobs include WebhookJobs (`M`). */
export function webhookQueues<M extends WebhookJobs>(
  deps: DeliveryDeps,
): Pick<QueueSpecs<M>, 'webhook.deliver'> {
  return {
    'webhook.deliver': {
      // The delivery row counts the attempts; the queue's own retries only cover a process that died
      // or a database that failed mid-attempt (the sweep redoes a leased attempt past its lease).
      retryLimit: 3,
      retryDelay: 30,
      expireInSeconds: 5 * 60,
      concurrency: 2,
      handler: async ({ deliveryId, attempt }, run) => {
        await deliverAttempt(deps, deliveryId, attempt, (tx, next, at) =>
          run.queue.enqueue(
            'webhook.deliver',
            { deliveryId, createdAt: at.toISOString(), attempt: next },
            { tx, id: jobId(deliveryId, next, at), startAfter: at },
          ),
        );
      },
    },
  };
}

export interface WebhookSweeper {
  /** Gives every pending delivery without a job its job; returns how many it gave. */
  sweep(): Promise<number>;
  /** Sweeps every `everyMs` until stopped. */
  start(): void;
  stop(): Promise<void>;
}

const BATCH = 100;

export function createWebhookSweeper(opts: {
  db: DeliveryDeps['db'];
  queue: Pick<JobQueue<WebhookJobs>, 'enqueue' | 'wake'>;
  log: Logger;
  everyMs?: number;
}): WebhookSweeper {
  const { db, queue, log } = opts;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<unknown> | undefined;
  let stopped = false;

  async function sweep(): Promise<number> {
    let given = 0;
    for (;;) {
      const n = await db.transaction(async (tx) => {
        const rows = await unqueuedDeliveries(tx, BATCH);
        for (const r of rows) {
          await queue.enqueue(
            'webhook.deliver',
            { deliveryId: r.id, createdAt: r.nextAttemptAt.toISOString(), attempt: r.attempts },
            { tx, id: jobId(r.id, r.attempts, r.nextAttemptAt), startAfter: r.nextAttemptAt },
          );
        }
        await markQueued(
          tx,
          rows.map((r) => ({ id: r.id, attempt: r.attempts })),
        );
        return rows.length;
      });
      given += n;
      if (n < BATCH) break;
    }
    if (given) queue.wake('webhook.deliver');
    return given;
  }

  function run() {
    if (inFlight || stopped) return;
    inFlight = sweep()
      .catch((err) => log.error({ err }, 'webhooks: could not queue deliveries'))
      .finally(() => {
        inFlight = undefined;
      });
  }

  return {
    sweep,
    start() {
      stopped = false;
      timer = setInterval(run, opts.everyMs ?? 2_000);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}
