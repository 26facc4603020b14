import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { cfdis, searchDictionaryPending } from '../schema';

/** An account whose CFDI stored before the search dictionary existed still wait for it. */
export async function pendingSearchDictionaryUser(db: Db): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: searchDictionaryPending.userId })
    .from(searchDictionaryPending)
    .limit(1);
  return row?.userId;
}

/**
 * Adds the account's next `batch` CFDI by id after `after` to the search dictionary, as the triggers
 * of migration 0033 add every new one (f_search_dictionary_note); the last id read, undefined when none was left.
 */
export async function noteSearchDictionary(
  db: Db,
  userId: string,
  after: string,
  batch: number,
): Promise<string | undefined> {
  const rows = db
    .select({
      id: cfdis.id,
      userId: cfdis.userId,
      side: cfdis.side,
      rfcEmisor: cfdis.rfcEmisor,
      nombreEmisor: cfdis.nombreEmisor,
      rfcReceptor: cfdis.rfcReceptor,
      nombreReceptor: cfdis.nombreReceptor,
      concepto: cfdis.concepto,
    })
    .from(cfdis)
    .where(and(eq(cfdis.userId, userId), gt(cfdis.id, after)))
    .orderBy(asc(cfdis.id))
    .limit(batch)
    .as('r');
  const [done] = await db
    .select({
      last: sql<string | null>`max(${rows.id})`,
      noted: sql`f_search_dictionary_note(array_agg(${rows.userId}), array_agg(${rows.side}),
        array_agg(${rows.rfcEmisor}), array_agg(${rows.nombreEmisor}), array_agg(${rows.rfcReceptor}),
        array_agg(${rows.nombreReceptor}), array_agg(${rows.concepto}))`,
    })
    .from(rows);
  return done?.last ?? undefined;
}

/** The account's dictionary holds all its CFDI: its searches may take the fast path. */
export async function finishSearchDictionary(db: Db, userId: string): Promise<void> {
  await db.delete(searchDictionaryPending).where(eq(searchDictionaryPending.userId, userId));
}
