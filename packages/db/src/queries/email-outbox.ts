import { desc, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { emailOutbox } from '../schema';

/** Newest first, optionally for one recipient. */
export function listOutbox(db: Db, opts: { to?: string; limit: number }) {
  return db
    .select()
    .from(emailOutbox)
    .where(opts.to ? eq(emailOutbox.to, opts.to.trim().toLowerCase()) : undefined)
    .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
    .limit(opts.limit);
}
