import type { Executor } from '@folio/db';
import { insertOutboxEmail, insertOutboxEmailToAccount } from '@folio/db/queries/email-outbox';

export interface OutboxMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** What the mail is for, e.g. 'verify-email'; kept for the dev outbox page and diagnostics. */
  kind: string;
}

/**
 * Writes a pending email. Call it inside the transaction that causes the mail, so the mail exists
 * exactly when that change commits; the dispatcher delivers it afterwards.
 */
export async function enqueueEmail(db: Executor, msg: OutboxMessage): Promise<string> {
  const id = crypto.randomUUID();
  const { to, subject, html, text, kind } = msg;
  await insertOutboxEmail(db, { id, to, subject, html, text, kind });
  return id;
}

/** `enqueueEmail` to the account registered at `address`, if any; nothing is written otherwise. */
export async function enqueueEmailToAccount(
  db: Executor,
  address: string,
  msg: Omit<OutboxMessage, 'to'>,
): Promise<void> {
  const { subject, html, text, kind } = msg;
  await insertOutboxEmailToAccount(db, address, { id: crypto.randomUUID(), subject, html, text, kind });
}
