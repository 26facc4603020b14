import { randomUUID } from 'node:crypto';
import { getEntitlements, type PlanId } from '@folio/billing';
import { findEfirma } from '@folio/db/queries/efirmas';
import {
  findSyncJob,
  insertSyncJob,
  listSyncJobsOf,
  requestsOfJob,
  requestsOfJobs,
  type SyncJobRow,
  type SyncRequestRow,
} from '@folio/db/queries/sat-sync';
import type { Context } from '../../context';
import { AppError, conflict, invalidField, notFound } from '../../errors';
import { requireSession } from '../api-keys/rules';
import type { Principal } from '../auth/principal';
import { requireSatSyncPlan } from '../efirma/rules';
import { authorizeProfile } from '../profiles/access';
import { takeMonthlyQuota } from '../quota';
import { SYNC_JOB } from './sync-job-names';
import { checkSyncPeriod } from './sync-period';

// SAT sync jobs as the routes see them (integrations.md §1 "Sync jobs"): create one (session only,
// BASIC and PRO, a stored usable e.firma), read one, list a profile's. The work runs on the job
// queue (run-sync.ts); this only records the job and enqueues it in the same transaction.

export type SyncTipo = 'emitidos' | 'recibidos' | 'ambos';
export type SyncContenido = 'cfdi' | 'metadata' | 'ambos';
export type SyncEstado =
  | 'pendiente'
  | 'solicitada'
  | 'en_proceso'
  | 'descargando'
  | 'importando'
  | 'terminada'
  | 'error';

export interface SyncJobInput {
  desde: string;
  hasta: string;
  tipo: SyncTipo;
  contenido: SyncContenido;
}

/** BASIC's jobs a calendar month (Mexico City); PRO and ENTERPRISE are unlimited. */
export const BASIC_SYNC_JOBS_PER_MONTH = 10;
const QUOTA_KIND = 'sat_sync';
const syncJobLimit = (plan: PlanId) => (plan === 'BASIC' ? BASIC_SYNC_JOBS_PER_MONTH : null);

export interface SyncRequestAnswer {
  /** SAT's request id (null until SAT accepted the request). */
  id: string | null;
  tipo: 'emitidos' | 'recibidos';
  contenido: 'cfdi' | 'metadata';
  desde: string;
  hasta: string;
  estado: string;
  codigo: number | null;
  mensaje: string | null;
  intentos: number;
}

/** GET /api/sat-sync/{id} and each item of the profile's list. */
export interface SyncJobAnswer {
  id: string;
  profile_id: string;
  desde: string;
  hasta: string;
  tipo: SyncTipo;
  contenido: SyncContenido;
  origen: 'usuario' | 'diario';
  estado: SyncEstado;
  solicitudes: SyncRequestAnswer[];
  cfdi: { importados: number; duplicados: number; rechazados: number; fuera_de_cuota: number };
  metadata: { vigentes: number; cancelados: number; faltantes: number };
  error?: string;
  created_at: string;
  updated_at: string;
}

export function syncJobAnswer(job: SyncJobRow, requests: SyncRequestRow[]): SyncJobAnswer {
  return {
    id: job.id,
    profile_id: job.profileId,
    desde: job.desde,
    hasta: job.hasta,
    tipo: job.tipo as SyncTipo,
    contenido: job.contenido as SyncContenido,
    origen: job.origen as 'usuario' | 'diario',
    estado: job.estado as SyncEstado,
    solicitudes: requests.map((r) => ({
      id: r.satRequestId,
      tipo: r.direction as 'emitidos' | 'recibidos',
      contenido: r.content as 'cfdi' | 'metadata',
      desde: r.desde,
      hasta: r.hasta,
      estado: r.estado,
      codigo: r.codigo,
      mensaje: r.mensaje,
      intentos: r.attempts,
    })),
    cfdi: {
      importados: job.cfdiImportados,
      duplicados: job.cfdiDuplicados,
      rechazados: job.cfdiRechazados,
      fuera_de_cuota: job.cfdiFueraDeCuota,
    },
    metadata: {
      vigentes: job.metadataVigentes,
      cancelados: job.metadataCancelados,
      faltantes: job.metadataFaltantes,
    },
    ...(job.error ? { error: job.error } : {}),
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
  };
}

const TIPOS: readonly string[] = ['emitidos', 'recibidos', 'ambos'];
const CONTENIDOS: readonly string[] = ['cfdi', 'metadata', 'ambos'];

/**
 * POST /api/profiles/{id}/sat-sync → 202 `{id, estado}`. Session only (the job opens the stored
 * e.firma), BASIC (10 a month, counted atomically with the job's insert) or PRO; refused without a
 * usable stored e.firma. The job row and its queue job commit together.
 */
export async function createSyncJob(
  ctx: Context,
  principal: Principal,
  profileRef: string,
  input: SyncJobInput,
  now = new Date(),
): Promise<{ id: string; estado: SyncEstado }> {
  requireSession(principal);
  const userId = principal.user.id;
  const { plan } = await getEntitlements(ctx.db, userId);
  requireSatSyncPlan(plan);
  const profile = await authorizeProfile(ctx, userId, profileRef, 'write');
  if (!TIPOS.includes(input.tipo))
    throw invalidField('tipo', 'tipo must be emitidos, recibidos or ambos', 'validation_failed');
  if (!CONTENIDOS.includes(input.contenido))
    throw invalidField('contenido', 'contenido must be cfdi, metadata or ambos', 'validation_failed');
  checkSyncPeriod(input.desde, input.hasta, now);
  await requireUsableEfirma(ctx, profile.id, now);
  const jobs = ctx.jobs;
  if (!jobs) throw new Error('createSyncJob: this process has no job queue (Deps.jobs)');
  const id = randomUUID();
  await ctx.db.transaction(async (tx) => {
    await takeMonthlyQuota(ctx, userId, QUOTA_KIND, syncJobLimit(plan), 'SAT sync job', tx);
    await insertSyncJob(tx, {
      id,
      profileId: profile.id,
      userId,
      desde: input.desde,
      hasta: input.hasta,
      tipo: input.tipo,
      contenido: input.contenido,
    });
    await jobs.enqueue(SYNC_JOB, { jobId: id }, { tx });
  });
  jobs.wake(SYNC_JOB);
  return { id, estado: 'pendiente' };
}

async function requireUsableEfirma(ctx: Context, profileId: string, now: Date): Promise<void> {
  const efirma = await findEfirma(ctx.db, profileId);
  if (!efirma) {
    throw conflict(
      'A SAT sync needs the profile’s e.firma stored (PUT /api/profiles/{id}/efirma), or local mode: folio sat sync --cer --key',
      'efirma_required',
    );
  }
  if (efirma.refusedAt)
    throw conflict('SAT refused the stored e.firma; upload the current one', 'efirma_unusable');
  if (efirma.validoHasta <= now)
    throw conflict('The stored e.firma has expired; upload the current one', 'efirma_unusable');
}

/** GET /api/sat-sync/{id}: the job, if its profile is the caller's (404 otherwise). */
export async function getSyncJob(ctx: Context, principal: Principal, jobId: string): Promise<SyncJobAnswer> {
  const job = await findSyncJob(ctx.db, jobId);
  if (!job) throw notFound('No such SAT sync job');
  try {
    await authorizeProfile(ctx, principal.user.id, job.profileId, 'read');
  } catch (err) {
    // Another user's job is not told apart from none.
    if (err instanceof AppError) throw notFound('No such SAT sync job');
    throw err;
  }
  return syncJobAnswer(job, await requestsOfJob(ctx.db, job.id));
}

/** GET /api/profiles/{id}/sat-sync: the profile's jobs, newest first (the latest 100). */
export async function listSyncJobs(
  ctx: Context,
  principal: Principal,
  profileRef: string,
): Promise<SyncJobAnswer[]> {
  const profile = await authorizeProfile(ctx, principal.user.id, profileRef, 'read');
  const jobs = await listSyncJobsOf(ctx.db, profile.id);
  const requests = await requestsOfJobs(
    ctx.db,
    jobs.map((j) => j.id),
  );
  return jobs.map((j) =>
    syncJobAnswer(
      j,
      requests.filter((r) => r.jobId === j.id),
    ),
  );
}
