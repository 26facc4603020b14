import type { Db } from '@folio/db';
import {
  claimDueEmails,
  markEmailFailed,
  markEmailLogged,
  markEmailSent,
  type OutboxRow,
  redactExpiredLinks,
} from '@folio/db/queries/email-outbox';
import { Resend } from 'resend';

export interface DispatcherLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface EmailDispatcherOptions {
  db: Db;
  /** When unset, mails are marked 'logged' and their first link is logged instead of sent. */
  resendApiKey?: string;
  from: string;
  log: DispatcherLog;
  /** Failed sends are retried until this many attempts have been made. */
  maxAttempts?: number;
  /** Overrides the Resend API origin (tests point it at a local fake). */
  resendBaseUrl?: string;
  /**
   * Kinds of mail whose links are credentials (a reset, a verification), with how long those links
   * work. Once sent their rows keep no usable link; once that long has passed, neither do logged
   * ones (without a mail service the outbox is the developer's inbox, so its links stay until then
   * or until used).
   */
  secretLinks?: Record<string, number>;
}

export interface EmailDispatcher {
  /** Delivers every due row; resolves to the number of rows handled. */
  dispatchDue(): Promise<number>;
  start(intervalMs?: number): void;
  /** Stops the timer and waits for a dispatch in flight. */
  stop(): Promise<void>;
  /** Runs a dispatch soon (e.g. right after a commit that enqueued mail); coalesced, never throws. */
  kick(): void;
}

const BATCH = 10;
/** Expired links are looked for at most this often (one UPDATE over the outbox). */
const REDACT_EVERY_MS = 5 * 60_000;
const URL_RE = /https?:\/\/[^\s<>"')\]]+/;

/** 1, 2, 4 … minutes after the n-th failure, capped at an hour. */
function backoffSeconds(attempts: number): number {
  return Math.min(60 * 2 ** Math.max(attempts - 1, 0), 3600);
}

export function createEmailDispatcher(opts: EmailDispatcherOptions): EmailDispatcher {
  const { db, from, log } = opts;
  const maxAttempts = opts.maxAttempts ?? 5;
  const secretLinks = opts.secretLinks ?? {};
  let redactedAt = 0;
  let resend: Resend | undefined;
  // The constructor throws without a key, so it is built only on the first real send.
  const client = () => {
    resend ??= new Resend(
      opts.resendApiKey,
      opts.resendBaseUrl ? { baseUrl: opts.resendBaseUrl } : undefined,
    );
    return resend;
  };

  async function deliver(row: OutboxRow): Promise<void> {
    if (!opts.resendApiKey) {
      const url = row.text.match(URL_RE)?.[0];
      await markEmailLogged(db, row.id);
      log.info(
        { to: row.to, subject: row.subject, emailId: row.id, url },
        `email not sent (no RESEND_API_KEY); link: ${url ?? '(none)'}`,
      );
      return;
    }
    let failure: string;
    try {
      const { data, error } = await client().emails.send(
        { from, to: row.to, subject: row.subject, html: row.html, text: row.text },
        // Same key on every retry: Resend drops a duplicate if an earlier attempt did go through.
        { idempotencyKey: row.id },
      );
      if (data && !error) {
        await markEmailSent(db, row.id, data.id, { redactLinks: Object.hasOwn(secretLinks, row.kind) });
        return;
      }
      failure = error ? `${error.statusCode ?? '-'} ${error.name}: ${error.message}` : 'empty response';
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    }
    const attempts = row.attempts + 1;
    await markEmailFailed(db, row.id, { attempts, error: failure, retryInSeconds: backoffSeconds(attempts) });
    const detail = { emailId: row.id, kind: row.kind, attempts, error: failure };
    if (attempts >= maxAttempts) log.error(detail, 'email send failed; giving up');
    else log.warn(detail, 'email send failed; will retry');
  }

  async function dispatchDue(): Promise<number> {
    if (Date.now() - redactedAt >= REDACT_EVERY_MS) {
      redactedAt = Date.now();
      const redacted = await redactExpiredLinks(db, secretLinks);
      if (redacted) log.info({ redacted }, 'email outbox: expired links redacted');
    }
    let handled = 0;
    for (;;) {
      const rows = await claimDueEmails(db, { batch: BATCH, maxAttempts });
      for (const row of rows) {
        try {
          await deliver(row);
        } catch (err) {
          // Left claimed: the lease expires and the row is picked up again.
          log.error({ err, emailId: row.id }, 'email dispatch: could not record the outcome');
        }
        handled++;
      }
      if (rows.length < BATCH) return handled;
    }
  }

  let timer: NodeJS.Timeout | undefined;
  let scheduled: NodeJS.Immediate | undefined;
  let inFlight: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  /** One dispatch at a time; a trigger during a run asks for one more run, which sees rows committed since. */
  function trigger(): Promise<void> {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    inFlight = (async () => {
      try {
        do {
          again = false;
          await dispatchDue();
        } while (again && !stopped);
      } catch (err) {
        log.error({ err }, 'email dispatch failed');
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  }

  function kick(): void {
    if (stopped || scheduled) return;
    scheduled = setImmediate(() => {
      scheduled = undefined;
      if (!stopped) void trigger();
    });
  }

  return {
    dispatchDue,
    kick,
    start(intervalMs = 30_000) {
      stopped = false;
      if (timer) return;
      timer = setInterval(() => void trigger(), intervalMs);
      timer.unref();
      kick();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      timer = undefined;
      if (scheduled) clearImmediate(scheduled);
      scheduled = undefined;
      await inFlight;
    },
  };
}
