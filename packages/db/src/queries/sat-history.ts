import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { executePrepared, prepared } from '../prepared';
import { satSearchHistory } from '../schema';

export type SatHistoryRow = typeof satSearchHistory.$inferSelect;
export type NewSatHistoryRow = Omit<typeof satSearchHistory.$inferInsert, 'createdAt'>;

/**
 * Records one search and, when `prune`, drops the user's entries older than the newest `keep` (≥ 2)
 * in the same statement: every counted search sends it, and a transaction of an insert, a read of
 * the oldest kept and a delete cost three more round trips (docs/benchmarks.md, SAT search). The
 * statement's snapshot does not see its own insert, so the newest `keep - 1` earlier entries stay
 * beside it. (A retention cap, not a quota: between prunes a user holds a few more, which
 * `listSatHistory` does not show.)
 */
export async function recordSatSearch(
  db: Db,
  row: NewSatHistoryRow,
  keep: number,
  prune: boolean,
): Promise<void> {
  if (!prune) {
    // Prepared: postgres.js sends an unnamed statement with parameters as two round trips (Parse and
    // Describe, then Bind and Execute once it knows the parameter types); a named one as one.
    await prepared(db, 'recordSatSearch', (c) =>
      c.insert(satSearchHistory).values({
        id: sql.placeholder('id'),
        userId: sql.placeholder('userId'),
        tipo: sql.placeholder('tipo'),
        query: sql.placeholder('query'),
        filtros: sql.placeholder('filtros'),
        total: sql.placeholder('total'),
      }),
    ).execute(row);
    return;
  }
  await executePrepared(
    db,
    sql`
    with added as (
      insert into ${satSearchHistory} (id, user_id, tipo, query, filtros, total)
      values (${row.id}, ${row.userId}, ${row.tipo}, ${row.query}, ${JSON.stringify(row.filtros)}::jsonb, ${row.total}))
    delete from ${satSearchHistory} h
    where h.user_id = ${row.userId}
      and h.created_at < (
        select created_at from ${satSearchHistory} where user_id = ${row.userId}
        order by created_at desc, id desc offset ${Math.max(0, keep - 2)} limit 1)`,
  );
}

/** A page of the user's newest `keep` searches, newest first, and how many of those there are. */
export async function listSatHistory(
  db: Db,
  userId: string,
  page: { limit: number; offset: number },
  keep: number,
) {
  const mine = eq(satSearchHistory.userId, userId);
  const limit = Math.max(0, Math.min(page.limit, keep - page.offset));
  const [rows, totals] = await Promise.all([
    limit === 0
      ? []
      : db
          .select()
          .from(satSearchHistory)
          .where(mine)
          .orderBy(desc(satSearchHistory.createdAt), desc(satSearchHistory.id))
          .limit(limit)
          .offset(page.offset),
    db
      .select({ n: sql<number>`least(count(*), ${keep})::int`.mapWith(Number) })
      .from(satSearchHistory)
      .where(mine),
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
