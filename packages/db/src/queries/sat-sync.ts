// SAT sync jobs, their SAT requests and the packages stored before import (docs/sat-sync.md#sync-jobs).
import { and, asc, desc, eq, gt, gte, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../client';
import {
  cfdis,
  cfdiXml,
  efirmas,
  profiles,
  satMetadata,
  satSyncJobs,
  satSyncPackages,
  satSyncRequests,
  users,
} from '../schema';

export type SyncJobRow = typeof satSyncJobs.$inferSelect;
export type NewSyncJob = typeof satSyncJobs.$inferInsert;
export type SyncRequestRow = typeof satSyncRequests.$inferSelect;
export type NewSyncRequest = typeof satSyncRequests.$inferInsert;

export async function insertSyncJob(db: Executor, row: NewSyncJob): Promise<SyncJobRow> {
  const [job] = await db.insert(satSyncJobs).values(row).returning();
  return job!;
}

/** Inserts a job unless one with its id exists (the daily schedule's ids are per profile and day). */
export async function insertSyncJobOnce(db: Executor, row: NewSyncJob): Promise<boolean> {
  const done = await db
    .insert(satSyncJobs)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: satSyncJobs.id });
  return done.length > 0;
}

export async function findSyncJob(db: Executor, id: string): Promise<SyncJobRow | undefined> {
  const [row] = await db.select().from(satSyncJobs).where(eq(satSyncJobs.id, id));
  return row;
}

/** A profile's jobs, newest first. */
export function listSyncJobsOf(db: Executor, profileId: string, limit = 100): Promise<SyncJobRow[]> {
  return db
    .select()
    .from(satSyncJobs)
    .where(eq(satSyncJobs.profileId, profileId))
    .orderBy(desc(satSyncJobs.createdAt), desc(satSyncJobs.id))
    .limit(limit);
}

export async function setSyncJob(
  db: Executor,
  id: string,
  patch: Partial<Pick<SyncJobRow, 'estado' | 'error' | 'statusCheckedAt' | 'metadataFaltantes'>>,
): Promise<void> {
  await db
    .update(satSyncJobs)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(satSyncJobs.id, id));
}

type Counter =
  | 'cfdiImportados'
  | 'cfdiDuplicados'
  | 'cfdiRechazados'
  | 'cfdiFueraDeCuota'
  | 'metadataVigentes'
  | 'metadataCancelados'
  | 'metadataFaltantes';

/** Adds to the job's counters (in the transaction that marks what was counted). */
export async function addSyncCounters(db: Executor, id: string, add: Partial<Record<Counter, number>>) {
  const set: Record<string, unknown> = { updatedAt: new Date() };
  for (const [k, n] of Object.entries(add) as [Counter, number][]) {
    if (n) set[k] = sql`${satSyncJobs[k]} + ${n}`;
  }
  await db.update(satSyncJobs).set(set).where(eq(satSyncJobs.id, id));
}

/** CFDI before metadata (the metadata then finds the CFDI it speaks of), then direction and period. */
const REQUEST_ORDER = [
  asc(satSyncRequests.createdAt),
  asc(satSyncRequests.content),
  asc(satSyncRequests.direction),
  asc(satSyncRequests.desde),
] as const;

export function requestsOfJob(db: Executor, jobId: string): Promise<SyncRequestRow[]> {
  return db
    .select()
    .from(satSyncRequests)
    .where(eq(satSyncRequests.jobId, jobId))
    .orderBy(...REQUEST_ORDER);
}

/** The requests of several jobs at once (a listing). */
export function requestsOfJobs(db: Executor, jobIds: string[]): Promise<SyncRequestRow[]> {
  if (!jobIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(satSyncRequests)
    .where(
      sql`${satSyncRequests.jobId} in (${sql.join(
        jobIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    )
    .orderBy(...REQUEST_ORDER);
}

/** Inserts requests; one already there for the same job, direction, content and period is kept. */
export async function insertSyncRequests(db: Executor, rows: NewSyncRequest[]): Promise<void> {
  if (rows.length) await db.insert(satSyncRequests).values(rows).onConflictDoNothing();
}

export async function setSyncRequest(
  db: Executor,
  id: string,
  patch: Partial<Omit<SyncRequestRow, 'id' | 'jobId' | 'createdAt'>>,
): Promise<void> {
  await db
    .update(satSyncRequests)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(satSyncRequests.id, id));
}

export function packagesOf(db: Executor, requestId: string) {
  return db
    .select()
    .from(satSyncPackages)
    .where(eq(satSyncPackages.requestId, requestId))
    .orderBy(asc(satSyncPackages.packageId));
}

/** Records the packages SAT made for a request (known ones are kept as they are). */
export async function registerPackages(db: Executor, requestId: string, packageIds: string[]) {
  if (!packageIds.length) return;
  await db
    .insert(satSyncPackages)
    .values(packageIds.map((packageId) => ({ requestId, packageId })))
    .onConflictDoNothing();
}

/** Stores a downloaded package's bytes (base64) unless it was stored or imported meanwhile. */
export async function storePackage(db: Executor, requestId: string, packageId: string, zip: string) {
  await db
    .update(satSyncPackages)
    .set({ zip })
    .where(
      and(
        eq(satSyncPackages.requestId, requestId),
        eq(satSyncPackages.packageId, packageId),
        eq(satSyncPackages.imported, false),
        isNull(satSyncPackages.zip),
      ),
    );
}

/**
 * Forgets the packages of a request neither stored nor imported: SAT refused one of them (expired,
 * downloaded twice), so the request is asked again and those ids are dead; stored ones stay to import.
 */
export async function dropUnstoredPackages(db: Executor, requestId: string) {
  await db
    .delete(satSyncPackages)
    .where(
      and(
        eq(satSyncPackages.requestId, requestId),
        eq(satSyncPackages.imported, false),
        isNull(satSyncPackages.zip),
      ),
    );
}

/** Marks a package imported and drops its bytes; false when it already was (a repeated step). */
export async function markPackageImported(db: Executor, requestId: string, packageId: string) {
  const done = await db
    .update(satSyncPackages)
    .set({ imported: true, zip: null })
    .where(
      and(
        eq(satSyncPackages.requestId, requestId),
        eq(satSyncPackages.packageId, packageId),
        eq(satSyncPackages.imported, false),
      ),
    )
    .returning({ id: satSyncPackages.packageId });
  return done.length > 0;
}

/** The profile's CFDI dated in [desde, hasta] (days) whose SAT status is still unknown, with their XML. */
export function unknownStatusCfdis(db: Executor, profileId: string, desde: string, hasta: string) {
  return db
    .select({ id: cfdis.id, uuid: cfdis.uuid, xml: cfdiXml.xml })
    .from(cfdis)
    .innerJoin(cfdiXml, eq(cfdiXml.cfdiId, cfdis.id))
    .where(
      and(
        eq(cfdis.profileId, profileId),
        eq(cfdis.estatusSat, 'desconocido'),
        gte(cfdis.fecha, desde),
        lte(cfdis.fecha, `${hasta}T23:59:59`),
      ),
    )
    .orderBy(asc(cfdis.fecha), asc(cfdis.id));
}

/**
 * Profiles with a stored e.firma valid at `now` that SAT has not refused, with their owner (the
 * daily schedule filters by plan).
 */
export function profilesWithEfirma(db: Executor, now: Date) {
  return db
    .select({ profileId: profiles.id, userId: profiles.userId })
    .from(efirmas)
    .innerJoin(profiles, eq(profiles.id, efirmas.profileId))
    .where(and(isNull(efirmas.refusedAt), gt(efirmas.validoHasta, now)))
    .orderBy(asc(profiles.id));
}

export type MissingXmlDirection = 'emitidos' | 'recibidos' | null;

/**
 * Days (YYYY-MM-DD) in [desde, hasta] whose metadata lists UUIDs the profile has no CFDI for, with
 * the direction SAT serves each from (`emitidos` when the profile issued it, `recibidos` when it
 * received it, null when the line names neither). A received CFDI SAT lists as cancelled is left
 * out: SAT serves received XML only `Vigente`, so asking for it would bring nothing.
 */
export async function missingXmlDays(
  db: Executor,
  profileId: string,
  rfc: string,
  range: { desde: string; hasta: string },
): Promise<{ day: string; direction: MissingXmlDirection }[]> {
  const m = satMetadata;
  const day = sql<string>`substr(${m.fechaEmision}, 1, 10)`;
  const direction = sql<MissingXmlDirection>`case when ${m.rfcEmisor} = ${rfc} then 'emitidos' when ${m.rfcReceptor} = ${rfc} then 'recibidos' end`;
  return db
    .selectDistinct({ day, direction })
    .from(m)
    .where(
      and(
        eq(m.profileId, profileId),
        sql`${day} between ${range.desde} and ${range.hasta}`,
        sql`not (${m.estatus} = 'cancelado' and ${m.rfcReceptor} is not distinct from ${rfc} and ${m.rfcEmisor} is distinct from ${rfc})`,
        sql`not exists (select 1 from cfdis c where c.profile_id = ${m.profileId} and c.uuid = ${m.uuid})`,
      ),
    )
    .orderBy(day);
}

/** The address of a profile's owner (SAT refused the profile's e.firma: the owner is told). */
export async function ownerEmailOf(db: Executor, profileId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ email: users.email })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, profileId));
  return row?.email;
}

/** A live SAT request id of the profile for the same direction, content and period (SAT's 5005). */
export async function liveRequestIdFor(
  db: Executor,
  profileId: string,
  r: Pick<SyncRequestRow, 'id' | 'direction' | 'content' | 'desde' | 'hasta' | 'shiftSeconds'>,
): Promise<string | undefined> {
  const [row] = await db
    .select({ satRequestId: satSyncRequests.satRequestId })
    .from(satSyncRequests)
    .innerJoin(satSyncJobs, eq(satSyncJobs.id, satSyncRequests.jobId))
    .where(
      and(
        eq(satSyncJobs.profileId, profileId),
        eq(satSyncRequests.direction, r.direction),
        eq(satSyncRequests.content, r.content),
        eq(satSyncRequests.desde, r.desde),
        eq(satSyncRequests.hasta, r.hasta),
        eq(satSyncRequests.shiftSeconds, r.shiftSeconds),
        sql`${satSyncRequests.id} <> ${r.id}`,
        sql`${satSyncRequests.satRequestId} is not null`,
      ),
    )
    .orderBy(desc(satSyncRequests.updatedAt))
    .limit(1);
  return row?.satRequestId ?? undefined;
}

/**
 * SAT's metadata lines of the profile emitted in [desde, hasta] (days) whose UUID no stored CFDI has;
 * `rfcEmisor` / `rfcReceptor` narrow them to one direction.
 */
export async function countMissingXml(
  db: Executor,
  profileId: string,
  range: { desde: string; hasta: string; rfcEmisor?: string; rfcReceptor?: string },
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(satMetadata)
    .where(
      and(
        eq(satMetadata.profileId, profileId),
        sql`substr(${satMetadata.fechaEmision}, 1, 10) between ${range.desde} and ${range.hasta}`,
        range.rfcEmisor ? eq(satMetadata.rfcEmisor, range.rfcEmisor) : undefined,
        range.rfcReceptor ? eq(satMetadata.rfcReceptor, range.rfcReceptor) : undefined,
        sql`not exists (select 1 from cfdis c where c.profile_id = ${satMetadata.profileId} and c.uuid = ${satMetadata.uuid})`,
      ),
    );
  return Number(row?.n ?? 0);
}

export async function profileRfcOf(db: Executor, profileId: string): Promise<string | undefined> {
  const [row] = await db.select({ rfc: profiles.rfc }).from(profiles).where(eq(profiles.id, profileId));
  return row?.rfc;
}
