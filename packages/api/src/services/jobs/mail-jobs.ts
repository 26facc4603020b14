import type { Db } from '@folio/db';
import { listUndeliveredEmails } from '@folio/db/queries/email-outbox';
import type { MailSender } from '@folio/email';
import type { Logger } from '../../context';
import type { JobQueue, QueueSpecs } from './queue';
import { orderedJobId } from './sql-adapters';

// The mail outbox on the job queue. A mail is a row of email_outbox, written in the transaction that
// causes it (so it exists exactly when that change commits: the outbox pattern). Each attempt at
// sending it is one `email.send` job whose id comes from (row, attempt), so giving a row its job
// twice is a no-op; a failed attempt schedules the next as a new job at the time the row records,
// in the transaction that records the failure.

export type MailJobs = {
  /** `createdAt`: the row's, in ISO form (orders the jobs of rows written in one instant). */
  'email.send': { emailId: string; createdAt: string; attempt: number };
  /** Every minute: rows whose kick was lost (a process stopped, a script wrote them) get their job. */
  'email.adopt': Record<string, never>;
  /** Every 5 minutes: links that are credentials are taken out of mails older than their lifetime. */
  'email.redact': Record<string, never>;
};

/** Same row and attempt, same job; older rows' jobs first (see orderedJobId). */
const sendJobId = (emailId: string, createdAt: Date, attempt: number) =>
  orderedJobId(createdAt, 'email.send', emailId, String(attempt));

/** Gives every undelivered row its job (idempotent), oldest first; returns how many were new. */
export async function adoptUndelivered(
  db: Db,
  queue: JobQueue<MailJobs>,
  maxAttempts: number,
): Promise<number> {
  let created = 0;
  // One statement per row, in order: the queue starts jobs in the order they were created.
  for (const row of await listUndeliveredEmails(db, { maxAttempts })) {
    const id = await queue.enqueue(
      'email.send',
      { emailId: row.id, createdAt: row.createdAt.toISOString(), attempt: row.attempts },
      { id: sendJobId(row.id, row.createdAt, row.attempts), startAfter: row.nextAttemptAt },
    );
    if (id) created++;
  }
  queue.wake('email.send');
  return created;
}

export function mailQueues(db: Db, sender: MailSender): QueueSpecs<MailJobs> {
  return {
    'email.send': {
      // The attempts a row records are the mail's retries; the queue's own retries only cover a
      // process that died or a database that failed mid-send (the row's attempt is then still due).
      retryLimit: 3,
      retryDelay: 30,
      expireInSeconds: 5 * 60,
      handler: async ({ emailId, createdAt, attempt }, run) => {
        await sender.deliver(emailId, attempt, (tx, retry) =>
          run.queue.enqueue(
            'email.send',
            { emailId, createdAt, attempt: retry.attempts },
            { tx, id: sendJobId(emailId, new Date(createdAt), retry.attempts), startAfter: retry.retryAt },
          ),
        );
      },
    },
    'email.adopt': {
      cron: { expression: '* * * * *' },
      handler: async (_, run) => {
        await adoptUndelivered(db, run.queue, sender.maxAttempts);
      },
    },
    'email.redact': {
      cron: { expression: '*/5 * * * *' },
      handler: async () => {
        await sender.redactExpired();
      },
    },
  };
}

export interface MailKicker {
  /** `adoptUndelivered` on this queue. */
  adopt(): Promise<number>;
  /** After a commit that wrote mail: adopt soon and wake the senders; coalesced, never throws. */
  kick(): void;
  /** Waits for an adoption in flight; later kicks do nothing. */
  stop(): Promise<void>;
}

/**
 * The services write outbox rows (inside their transactions) and call `kick` after committing; this
 * sends the rows' jobs. Rows whose kick never came (a process stopped between the commit and the
 * kick, a script wrote them) get theirs at the next start or from the `email.adopt` job, within a
 * minute.
 */
export function createMailKicker(opts: {
  db: Db;
  queue: JobQueue<MailJobs>;
  maxAttempts: number;
  log: Logger;
}): MailKicker {
  const { db, queue, log } = opts;
  let scheduled: NodeJS.Immediate | undefined;
  let inFlight: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const adopt = () => adoptUndelivered(db, queue, opts.maxAttempts);

  /** One adoption at a time; a kick during one asks for one more, which sees rows committed since. */
  function run(): Promise<void> {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    inFlight = (async () => {
      try {
        do {
          again = false;
          await adopt();
        } while (again && !stopped);
      } catch (err) {
        log.error({ err }, 'email outbox: could not queue mail');
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  }

  return {
    adopt,
    kick() {
      if (stopped || scheduled) return;
      scheduled = setImmediate(() => {
        scheduled = undefined;
        if (!stopped) void run();
      });
    },
    async stop() {
      stopped = true;
      if (scheduled) clearImmediate(scheduled);
      scheduled = undefined;
      await inFlight;
    },
  };
}
