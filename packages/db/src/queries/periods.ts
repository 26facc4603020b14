import { and, asc, eq } from 'drizzle-orm';
import type { Db, Executor } from '../client';
import { accountingPeriods } from '../schema';
import type { PeriodRow } from './expenses';

export function listPeriods(db: Executor, profileId: string): Promise<PeriodRow[]> {
  return db
    .select()
    .from(accountingPeriods)
    .where(eq(accountingPeriods.profileId, profileId))
    .orderBy(asc(accountingPeriods.anio), asc(accountingPeriods.mes));
}

export async function findPeriod(db: Executor, id: string): Promise<PeriodRow | undefined> {
  const [row] = await db.select().from(accountingPeriods).where(eq(accountingPeriods.id, id));
  return row;
}

/** The profile's period for that month, created when missing; `created` says which. */
export async function ensurePeriod(
  db: Db,
  values: { id: string; profileId: string; anio: number; mes: number },
): Promise<{ row: PeriodRow; created: boolean }> {
  const [inserted] = await db.insert(accountingPeriods).values(values).onConflictDoNothing().returning();
  if (inserted) return { row: inserted, created: true };
  const [existing] = await db
    .select()
    .from(accountingPeriods)
    .where(
      and(
        eq(accountingPeriods.profileId, values.profileId),
        eq(accountingPeriods.anio, values.anio),
        eq(accountingPeriods.mes, values.mes),
      ),
    );
  if (!existing) throw new Error('period vanished between insert and select');
  return { row: existing, created: false };
}

export async function setPeriodState(
  db: Executor,
  id: string,
  estado: 'ABIERTO' | 'CERRADO',
): Promise<PeriodRow> {
  const [row] = await db
    .update(accountingPeriods)
    .set({ estado, updatedAt: new Date() })
    .where(eq(accountingPeriods.id, id))
    .returning();
  if (!row) throw new Error(`period ${id} not found`);
  return row;
}
