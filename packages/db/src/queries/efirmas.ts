import { eq } from 'drizzle-orm';
import type { Executor } from '../client';
import { efirmas } from '../schema';

export type EfirmaRow = typeof efirmas.$inferSelect;
export type NewEfirma = typeof efirmas.$inferInsert;

/** Stores the profile's e.firma, replacing the one it had (one per profile). */
export async function replaceEfirma(db: Executor, row: NewEfirma): Promise<void> {
  await db.delete(efirmas).where(eq(efirmas.profileId, row.profileId));
  await db.insert(efirmas).values(row);
}

export async function findEfirma(db: Executor, profileId: string): Promise<EfirmaRow | undefined> {
  const [row] = await db.select().from(efirmas).where(eq(efirmas.profileId, profileId));
  return row;
}

/** Erases the row (and with it the wrapped key); true when there was one. */
export async function deleteEfirma(db: Executor, profileId: string): Promise<boolean> {
  const gone = await db.delete(efirmas).where(eq(efirmas.profileId, profileId)).returning({ id: efirmas.id });
  return gone.length > 0;
}
