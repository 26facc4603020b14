import type { Db, Executor } from '@folio/db';
import {
  emailForAttempt,
  markEmailFailed,
  markEmailLogged,
  markEmailSent,
  type OutboxRow,
  redactExpiredLinks,
} from '@folio/db/queries/email-outbox';
import { Resend } from 'resend';

// One outbox row delivered: the job queue (packages/api/src/services/jobs/mail-jobs.ts) runs this for
// each row, and for each retry of a failed one at the time the row records.

export interface SenderLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface MailSenderOptions {
  db: Db;
  /** When unset, mails are marked 'logged' and their first link is logged instead of sent. */
  resendApiKey?: string;
  from: string;
  log: SenderLog;
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

/** A failed attempt that has attempts left: when the row is due again. */
export interface Retry {
  attempts: number;
  retryAt: Date;
}

export type Delivery =
  | { outcome: 'sent' | 'logged' }
  /** Not this attempt's to make: already made, or the row is delivered or out of attempts. */
  | { outcome: 'skipped' }
  | { outcome: 'failed'; attempts: number; retryAt: Date | null };

export interface MailSender {
  maxAttempts: number;
  /**
   * Makes attempt number `attempt` (0 = the first) at delivering the row. A failure is recorded on
   * the row with its next attempt time; while attempts remain, `scheduleRetry` runs in that same
   * transaction (so the retry exists exactly when the failure is recorded).
   */
  deliver(
    id: string,
    attempt: number,
    scheduleRetry?: (tx: Executor, retry: Retry) => Promise<unknown>,
  ): Promise<Delivery>;
  /** Takes expired links out of the outbox (`secretLinks`); returns how many mails were redacted. */
  redactExpired(): Promise<number>;
}

const URL_RE = /https?:\/\/[^\s<>"')\]]+/;

/** 1, 2, 4 … minutes after the n-th failure, capped at an hour. */
function backoffSeconds(attempts: number): number {
  return Math.min(60 * 2 ** Math.max(attempts - 1, 0), 3600);
}

export function createMailSender(opts: MailSenderOptions): MailSender {
  const { db, from, log } = opts;
  const maxAttempts = opts.maxAttempts ?? 5;
  const secretLinks = opts.secretLinks ?? {};
  let resend: Resend | undefined;
  // The constructor throws without a key, so it is built only on the first real send.
  const client = () => {
    resend ??= new Resend(
      opts.resendApiKey,
      opts.resendBaseUrl ? { baseUrl: opts.resendBaseUrl } : undefined,
    );
    return resend;
  };

  /** The provider's answer: null when sent (recorded), else why not. */
  async function send(row: OutboxRow): Promise<string | null> {
    try {
      const { data, error } = await client().emails.send(
        { from, to: row.to, subject: row.subject, html: row.html, text: row.text },
        // Same key on every retry: Resend drops a duplicate if an earlier attempt did go through.
        { idempotencyKey: row.id },
      );
      if (data && !error) {
        await markEmailSent(db, row.id, data.id, { redactLinks: Object.hasOwn(secretLinks, row.kind) });
        return null;
      }
      return error ? `${error.statusCode ?? '-'} ${error.name}: ${error.message}` : 'empty response';
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }

  return {
    maxAttempts,
    async deliver(id, attempt, scheduleRetry) {
      const row = await emailForAttempt(db, id, { attempt, maxAttempts });
      if (!row) return { outcome: 'skipped' };
      if (!opts.resendApiKey) {
        const url = row.text.match(URL_RE)?.[0];
        await markEmailLogged(db, row.id);
        log.info(
          { to: row.to, subject: row.subject, emailId: row.id, url },
          `email not sent (no RESEND_API_KEY); link: ${url ?? '(none)'}`,
        );
        return { outcome: 'logged' };
      }
      const failure = await send(row);
      if (failure === null) return { outcome: 'sent' };
      const attempts = attempt + 1;
      const retryAt = await db.transaction(async (tx) => {
        const at = await markEmailFailed(tx, row.id, {
          attempts,
          error: failure,
          retryInSeconds: backoffSeconds(attempts),
        });
        if (attempts < maxAttempts) await scheduleRetry?.(tx, { attempts, retryAt: at });
        return at;
      });
      const detail = { emailId: row.id, kind: row.kind, attempts, error: failure };
      if (attempts >= maxAttempts) {
        log.error(detail, 'email send failed; giving up');
        return { outcome: 'failed', attempts, retryAt: null };
      }
      log.warn(detail, 'email send failed; will retry');
      return { outcome: 'failed', attempts, retryAt };
    },
    async redactExpired() {
      const redacted = await redactExpiredLinks(db, secretLinks);
      if (redacted) log.info({ redacted }, 'email outbox: expired links redacted');
      return redacted;
    },
  };
}
