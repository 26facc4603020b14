import { and, count, desc, eq, lt } from 'drizzle-orm';
import type { Db } from '../client';
import { satSearchHistory } from '../schema';

export type SatHistoryRow = typeof satSearchHistory.$inferSelect;
export type NewSatHistoryRow = Omit<typeof satSearchHistory.$inferInsert, 'createdAt'>;

/**
 * Records one search and drops the user's entries older than the newest `keep`, in one transaction.
 * (A retention cap, not a quota: concurrent searches may leave one or two extra until the next.)
 */
export async function recordSatSearch(db: Db, row: NewSatHistoryRow, keep: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [inserted] = await tx.insert(satSearchHistory).values(row).returning();
    if (!inserted) return;
    const [oldestKept] = await tx
      .select({ createdAt: satSearchHistory.createdAt })
      .from(satSearchHistory)
      .where(eq(satSearchHistory.userId, row.userId))
      .orderBy(desc(satSearchHistory.createdAt), desc(satSearchHistory.id))
      .offset(keep - 1)
      .limit(1);
    if (!oldestKept) return;
    await tx
      .delete(satSearchHistory)
      .where(
        and(eq(satSearchHistory.userId, row.userId), lt(satSearchHistory.createdAt, oldestKept.createdAt)),
      );
  });
}

/** A page of the user's searches, newest first, and how many there are. */
export async function listSatHistory(db: Db, userId: string, page: { limit: number; offset: number }) {
  const mine = eq(satSearchHistory.userId, userId);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(satSearchHistory)
      .where(mine)
      .orderBy(desc(satSearchHistory.createdAt), desc(satSearchHistory.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(satSearchHistory).where(mine),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** Deletes every search of the user; returns how many there were. */
export async function clearSatHistory(db: Db, userId: string): Promise<number> {
  const rows = await db
    .delete(satSearchHistory)
    .where(eq(satSearchHistory.userId, userId))
    .returning({ id: satSearchHistory.id });
  return rows.length;
}
