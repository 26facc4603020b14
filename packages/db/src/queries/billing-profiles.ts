import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, rowsOf, type Tx } from '../client';
import { profiles, users } from '../schema';

/** Serialises billing changes and profile creation of one user (same lock as profile inserts). */
export async function lockUser(tx: Tx, userId: string): Promise<boolean> {
  const rows = await tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for update`);
  return rowsOf(rows).length > 0;
}

/**
 * Makes the user's usable (unfrozen) profiles fit `limit` (null = unlimited): surplus ones are frozen
 * newest first with reason PLAN_LIMIT; when the limit grows, frozen ones are thawed oldest first.
 */
export async function fitProfilesToLimit(
  db: Executor,
  userId: string,
  limit: number | null,
  now: Date = new Date(),
): Promise<{ frozen: string[]; unfrozen: string[] }> {
  const rows = await db
    .select({ id: profiles.id, frozen: profiles.frozen })
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .orderBy(asc(profiles.createdAt), asc(profiles.id));
  const active = rows.filter((r) => !r.frozen);
  const frozenRows = rows.filter((r) => r.frozen);
  let freeze: string[] = [];
  let thaw: string[] = [];
  if (limit !== null && active.length > limit) {
    freeze = active.slice(limit).map((r) => r.id);
  } else {
    const room = limit === null ? frozenRows.length : limit - active.length;
    thaw = frozenRows.slice(0, Math.max(0, room)).map((r) => r.id);
  }
  if (freeze.length) {
    await db
      .update(profiles)
      .set({ frozen: true, frozenReason: 'PLAN_LIMIT', frozenAt: now, updatedAt: now })
      .where(and(eq(profiles.userId, userId), inArray(profiles.id, freeze)));
  }
  if (thaw.length) {
    await db
      .update(profiles)
      .set({ frozen: false, frozenReason: null, frozenAt: null, updatedAt: now })
      .where(and(eq(profiles.userId, userId), inArray(profiles.id, thaw)));
  }
  return { frozen: freeze, unfrozen: thaw };
}
