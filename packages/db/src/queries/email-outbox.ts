import { and, asc, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../client';
import { emailOutbox } from '../schema';

export type OutboxRow = typeof emailOutbox.$inferSelect;
export type NewOutboxEmail = Pick<OutboxRow, 'id' | 'to' | 'subject' | 'html' | 'text' | 'kind'>;

/** A pending row; written in the caller's transaction so the mail exists exactly when it commits. */
export async function insertOutboxEmail(db: Executor, email: NewOutboxEmail): Promise<void> {
  await db.insert(emailOutbox).values({ ...email, status: 'pending' });
}

/**
 * A pending row to the account registered at `address`; for an address without one the same
 * statement writes nothing (a reset request must not show in the work done whether it has one).
 */
export async function insertOutboxEmailToAccount(
  db: Executor,
  address: string,
  email: Omit<NewOutboxEmail, 'to'>,
): Promise<void> {
  await db.execute(sql`insert into email_outbox (id, "to", subject, html, text, kind, status)
    select ${email.id}, email, ${email.subject}, ${email.html}, ${email.text}, ${email.kind}, 'pending'
    from users where email = ${address}`);
}

/** Rows still to deliver (pending, or failed with attempts left), oldest first: each needs a send job. */
export function listUndeliveredEmails(db: Executor, opts: { maxAttempts: number }) {
  return db
    .select({
      id: emailOutbox.id,
      attempts: emailOutbox.attempts,
      nextAttemptAt: emailOutbox.nextAttemptAt,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(
      or(
        eq(emailOutbox.status, 'pending'),
        and(eq(emailOutbox.status, 'failed'), lt(emailOutbox.attempts, opts.maxAttempts)),
      ),
    )
    .orderBy(asc(emailOutbox.createdAt), asc(emailOutbox.id));
}

/**
 * The row for its `attempt`-th try (0 = the first): undelivered, with exactly that many attempts
 * made and attempts left. Null when another run already made that attempt or the row is done.
 */
export async function emailForAttempt(
  db: Executor,
  id: string,
  opts: { attempt: number; maxAttempts: number },
): Promise<OutboxRow | null> {
  const [row] = await db
    .select()
    .from(emailOutbox)
    .where(
      and(
        eq(emailOutbox.id, id),
        eq(emailOutbox.attempts, opts.attempt),
        lt(emailOutbox.attempts, opts.maxAttempts),
        inArray(emailOutbox.status, ['pending', 'failed']),
      ),
    );
  return row ?? null;
}

/** No mail provider configured: the mail was logged instead of sent. */
export async function markEmailLogged(db: Db, id: string): Promise<void> {
  await db.update(emailOutbox).set({ status: 'logged' }).where(eq(emailOutbox.id, id));
}

/** Recorded as sent; a mail whose links are credentials keeps no usable link (`redactLinks`). */
export async function markEmailSent(
  db: Db,
  id: string,
  providerId: string,
  opts: { redactLinks: boolean },
): Promise<void> {
  await db
    .update(emailOutbox)
    .set({
      status: 'sent',
      providerId,
      sentAt: sql`now()`,
      error: null,
      ...(opts.redactLinks ? withoutTokens : {}),
    })
    .where(eq(emailOutbox.id, id));
}

/** A link's `token=` value, up to where a URL ends in text or HTML. */
const TOKEN_IN_LINK = String.raw`token=[^&\s"'<>]+`;
const REDACTED = 'token=[retirado]';
/** Text and HTML with every link's token replaced (the mail stays readable, the link is dead). */
const withoutTokens = {
  text: sql`regexp_replace(${emailOutbox.text}, ${TOKEN_IN_LINK}, ${REDACTED}, 'g')`,
  html: sql`regexp_replace(${emailOutbox.html}, ${TOKEN_IN_LINK}, ${REDACTED}, 'g')`,
};
const holdsToken = sql`(${emailOutbox.text} ~ ${TOKEN_IN_LINK} or ${emailOutbox.html} ~ ${TOKEN_IN_LINK})`;

/** Takes the links out of the mails of `kind` to `to` (a reset or verification link just used). */
export async function redactMailedLinks(db: Executor, to: string, kind: string): Promise<void> {
  await db
    .update(emailOutbox)
    .set(withoutTokens)
    .where(and(eq(emailOutbox.to, to), eq(emailOutbox.kind, kind), holdsToken));
}

/**
 * Takes the links out of every mail of a kind in `lifetimesMs` older than its links' lifetime (a
 * link that has expired is no use to anyone, and a read of the table must not yield a live one).
 * Returns how many mails were redacted.
 */
export async function redactExpiredLinks(db: Executor, lifetimesMs: Record<string, number>): Promise<number> {
  const kinds = Object.entries(lifetimesMs).map(
    ([kind, ms]) =>
      sql`(${emailOutbox.kind} = ${kind} and ${emailOutbox.createdAt} < now() - make_interval(secs => ${ms / 1000}))`,
  );
  if (!kinds.length) return 0;
  const rows = await db
    .update(emailOutbox)
    .set(withoutTokens)
    .where(and(sql`(${sql.join(kinds, sql` or `)})`, holdsToken))
    .returning({ id: emailOutbox.id });
  return rows.length;
}

/** Records a failed attempt and when the next is due (`retryInSeconds` from now); returns that time. */
export async function markEmailFailed(
  db: Executor,
  id: string,
  failure: { attempts: number; error: string; retryInSeconds: number },
): Promise<Date> {
  const [row] = await db
    .update(emailOutbox)
    .set({
      status: 'failed',
      attempts: failure.attempts,
      error: failure.error,
      nextAttemptAt: sql`now() + make_interval(secs => ${failure.retryInSeconds})`,
    })
    .where(eq(emailOutbox.id, id))
    .returning({ nextAttemptAt: emailOutbox.nextAttemptAt });
  if (!row) throw new Error(`email ${id} is not in the outbox`);
  return row.nextAttemptAt;
}

/** Newest first, optionally for one recipient. */
export function listOutbox(db: Db, opts: { to?: string; limit: number }) {
  return db
    .select()
    .from(emailOutbox)
    .where(opts.to ? eq(emailOutbox.to, opts.to.trim().toLowerCase()) : undefined)
    .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
    .limit(opts.limit);
}
