import { and, eq, isNull, lte, ne } from 'drizzle-orm';
import type { Executor } from '../client';
import { efirmas, profiles, users } from '../schema';

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

/** Records whose data key is wrapped by another master key version than `current`. */
export function efirmasNotOnVersion(db: Executor, current: number): Promise<EfirmaRow[]> {
  return db.select().from(efirmas).where(ne(efirmas.keyVersion, current));
}

/** Stores a re-wrapped data key, unless the record changed meanwhile (replaced or re-wrapped). */
export async function setWrappedKey(
  db: Executor,
  id: string,
  from: { keyVersion: number; wrappedKey: string },
  to: { keyVersion: number; wrappedKey: string },
): Promise<boolean> {
  const done = await db
    .update(efirmas)
    .set(to)
    .where(
      and(
        eq(efirmas.id, id),
        eq(efirmas.keyVersion, from.keyVersion),
        eq(efirmas.wrappedKey, from.wrappedKey),
      ),
    )
    .returning({ id: efirmas.id });
  return done.length > 0;
}

/** Records SAT's refusal of the profile's e.firma (304/305); true the first time. */
export async function markEfirmaRefused(db: Executor, profileId: string, at: Date): Promise<boolean> {
  const done = await db
    .update(efirmas)
    .set({ refusedAt: at })
    .where(and(eq(efirmas.profileId, profileId), isNull(efirmas.refusedAt)))
    .returning({ id: efirmas.id });
  return done.length > 0;
}

/**
 * Stored e.firmas valid until `by` or earlier whose owner was not told yet, with the owner's address
 * (one SAT already refused was told about then, and is left out).
 */
export function efirmasExpiringBy(db: Executor, by: Date) {
  return db
    .select({
      id: efirmas.id,
      profileId: efirmas.profileId,
      rfc: efirmas.rfc,
      numeroCertificado: efirmas.numeroCertificado,
      validoHasta: efirmas.validoHasta,
      email: users.email,
    })
    .from(efirmas)
    .innerJoin(profiles, eq(profiles.id, efirmas.profileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(lte(efirmas.validoHasta, by), isNull(efirmas.expiryNoticeAt), isNull(efirmas.refusedAt)));
}

/** Records that the e.firma's expiry was mailed; true the first time (the mail is written with it). */
export async function markExpiryNoticed(db: Executor, id: string, at: Date): Promise<boolean> {
  const done = await db
    .update(efirmas)
    .set({ expiryNoticeAt: at })
    .where(and(eq(efirmas.id, id), isNull(efirmas.expiryNoticeAt)))
    .returning({ id: efirmas.id });
  return done.length > 0;
}
