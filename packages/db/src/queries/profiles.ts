import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../client';
import { prepared } from '../prepared';
import { cfdis, profiles } from '../schema';
import { lockUser } from './billing-profiles';

export type ProfileRow = typeof profiles.$inferSelect;
export type NewProfile = typeof profiles.$inferInsert;

export function listProfiles(db: Db, userId: string): Promise<ProfileRow[]> {
  return db
    .select()
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .orderBy(asc(profiles.createdAt), asc(profiles.id));
}

export async function findProfile(db: Executor, id: string): Promise<ProfileRow | undefined> {
  const [row] = await prepared(db, 'findProfile', (c) =>
    c
      .select()
      .from(profiles)
      .where(eq(profiles.id, sql.placeholder('id'))),
  ).execute({ id });
  return row;
}

/** The user's own profile with this (normalised) RFC: RFCs are unique per user, not across users. */
export async function findOwnProfileByRfc(
  db: Executor,
  userId: string,
  rfc: string,
): Promise<ProfileRow | undefined> {
  const [row] = await db
    .select()
    .from(profiles)
    .where(and(eq(profiles.userId, userId), eq(profiles.rfc, rfc)));
  return row;
}

/**
 * Inserts the profile only while the user has fewer than `limit` (null = unlimited). The user row is
 * locked first, so concurrent creates for one user are decided one after another.
 */
export async function insertProfileWithinLimit(
  db: Db,
  values: NewProfile,
  limit: number | null,
): Promise<{ ok: true; row: ProfileRow } | { ok: false; reason: 'limit' | 'duplicate_rfc' }> {
  return db.transaction(async (tx) => {
    await lockUser(tx, values.userId);
    if (limit !== null) {
      const [row] = await tx.select({ n: count() }).from(profiles).where(eq(profiles.userId, values.userId));
      if ((row?.n ?? 0) >= limit) return { ok: false, reason: 'limit' } as const;
    }
    const [row] = await tx.insert(profiles).values(values).onConflictDoNothing().returning();
    return row ? ({ ok: true, row } as const) : ({ ok: false, reason: 'duplicate_rfc' } as const);
  });
}

export async function updateProfile(
  db: Executor,
  id: string,
  patch: Partial<
    Pick<ProfileRow, 'nombre' | 'rfc' | 'tipoPersona' | 'regimenesFiscales' | 'validacionesHabilitadas'>
  >,
): Promise<ProfileRow | undefined> {
  const [row] = await db
    .update(profiles)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(profiles.id, id))
    .returning();
  return row;
}

/**
 * Locks the profile row and says whether it holds any CFDI. FOR UPDATE waits for imports in flight
 * (each CFDI insert holds a key-share lock on its profile until it commits), so their documents count.
 */
export async function lockProfileHoldingCfdi(tx: Tx, id: string): Promise<boolean> {
  await tx.execute(sql`select 1 from ${profiles} where ${profiles.id} = ${id} for update`);
  const [row] = await tx.select({ id: cfdis.id }).from(cfdis).where(eq(cfdis.profileId, id)).limit(1);
  return row !== undefined;
}

/** Deletes the profile; everything that belongs to it goes with it through ON DELETE CASCADE. */
export async function deleteProfile(db: Executor, id: string): Promise<boolean> {
  const rows = await db.delete(profiles).where(eq(profiles.id, id)).returning({ id: profiles.id });
  return rows.length > 0;
}
