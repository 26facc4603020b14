import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, Executor } from '../client';
import { type SatAlertCambio, satAlerts, satFavorites, users } from '../schema';

export { SAT_ALERT_CAMBIOS, type SatAlertCambio } from '../schema';

export type SatAlertRow = typeof satAlerts.$inferSelect;

/** One change of one catalog code, as an import found it. */
export interface SatCodeChange {
  clave: string;
  cambio: SatAlertCambio;
  antes: string | null;
  despues: string | null;
}

/** Records each change once for every user who has the code among their favorites; returns how many. */
export async function recordSatAlerts(tx: Executor, changes: SatCodeChange[]): Promise<number> {
  if (!changes.length) return 0;
  const claves = [...new Set(changes.map((c) => c.clave))];
  const fans = await tx
    .select({ userId: satFavorites.userId, clave: satFavorites.clave })
    .from(satFavorites)
    .where(inArray(satFavorites.clave, claves));
  const rows = fans.flatMap((f) =>
    changes.filter((c) => c.clave === f.clave).map((c) => ({ id: randomUUID(), userId: f.userId, ...c })),
  );
  if (rows.length) await tx.insert(satAlerts).values(rows);
  return rows.length;
}

/** A page of the user's alerts, newest first, and how many there are. */
export async function listSatAlerts(db: Db, userId: string, page: { limit: number; offset: number }) {
  const mine = eq(satAlerts.userId, userId);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(satAlerts)
      .where(mine)
      .orderBy(desc(satAlerts.detectedAt), desc(satAlerts.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(satAlerts).where(mine),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

/** Marks one of the user's alerts read (the first reading's time is kept); undefined when not theirs. */
export async function markSatAlertRead(db: Db, userId: string, id: string): Promise<SatAlertRow | undefined> {
  return db.transaction(async (tx) => {
    const mine = and(eq(satAlerts.id, id), eq(satAlerts.userId, userId));
    await tx
      .update(satAlerts)
      .set({ readAt: new Date() })
      .where(and(mine, isNull(satAlerts.readAt)));
    const [row] = await tx.select().from(satAlerts).where(mine);
    return row;
  });
}

/**
 * Alerts no mail has covered yet, oldest first, with their owner's address, locked until the caller's
 * transaction ends (a concurrent run skips them rather than mailing them twice).
 */
export function claimUnnotifiedSatAlerts(tx: Executor) {
  return tx
    .select({ alert: satAlerts, email: users.email })
    .from(satAlerts)
    .innerJoin(users, eq(users.id, satAlerts.userId))
    .where(isNull(satAlerts.notifiedAt))
    .orderBy(asc(satAlerts.userId), asc(satAlerts.detectedAt), asc(satAlerts.id))
    .for('update', { of: satAlerts, skipLocked: true });
}

export async function markSatAlertsNotified(tx: Executor, ids: string[]): Promise<void> {
  if (ids.length)
    await tx.update(satAlerts).set({ notifiedAt: new Date() }).where(inArray(satAlerts.id, ids));
}
