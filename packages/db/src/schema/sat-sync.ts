import { boolean, index, integer, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { profiles } from './profiles';
import { users } from './users';

/**
 * A SAT sync job (docs/sat-sync.md#sync-jobs): a period, directions and contents to bring from SAT,
 * its state and what the imports counted. The job queue carries only its id; everything a step
 * needs to resume after a restart is here and in its requests and packages.
 */
export const satSyncJobs = pgTable(
  'sat_sync_jobs',
  {
    id: text('id').primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    desde: text('desde').notNull(),
    hasta: text('hasta').notNull(),
    /** emitidos | recibidos | ambos */
    tipo: text('tipo').notNull(),
    /** cfdi | metadata | ambos */
    contenido: text('contenido').notNull(),
    /** usuario (asked for) | diario (the PRO daily schedule) */
    origen: text('origen').notNull().default('usuario'),
    /** pendiente | solicitada | en_proceso | descargando | importando | terminada | error */
    estado: text('estado').notNull().default('pendiente'),
    cfdiImportados: integer('cfdi_importados').notNull().default(0),
    cfdiDuplicados: integer('cfdi_duplicados').notNull().default(0),
    cfdiRechazados: integer('cfdi_rechazados').notNull().default(0),
    cfdiFueraDeCuota: integer('cfdi_fuera_de_cuota').notNull().default(0),
    metadataVigentes: integer('metadata_vigentes').notNull().default(0),
    metadataCancelados: integer('metadata_cancelados').notNull().default(0),
    metadataFaltantes: integer('metadata_faltantes').notNull().default(0),
    /** Set when the status checks of the period's `desconocido` CFDI were made (a repeat skips them). */
    statusCheckedAt: timestamp('status_checked_at', { withTimezone: true, mode: 'date' }),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('sat_sync_jobs_profile_idx').on(t.profileId, t.createdAt.desc(), t.id.desc())],
);

/**
 * One SAT request of a job: a direction × content over a period (a 5003 answer splits it into two
 * halves, each its own row). `sat_request_id` is written in the transaction that records the 5000
 * answer, so a repeated step verifies the stored request instead of asking again.
 */
export const satSyncRequests = pgTable(
  'sat_sync_requests',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => satSyncJobs.id, { onDelete: 'cascade' }),
    /** emitidos | recibidos */
    direction: text('direction').notNull(),
    /** cfdi | metadata */
    content: text('content').notNull(),
    desde: text('desde').notNull(),
    hasta: text('hasta').notNull(),
    /** Seconds the start was moved earlier (SAT's 5002/5005). */
    shiftSeconds: integer('shift_seconds').notNull().default(0),
    satRequestId: text('sat_request_id'),
    /** When SAT accepted `sat_request_id` (a request still unfinished after 96 hours is asked again). */
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }),
    /** pendiente | solicitada | en_proceso | descargando | importada | dividida | vacia | error */
    estado: text('estado').notNull().default('pendiente'),
    /** Times SAT was asked for this period (a failed or expired request is asked again, once for estado 4). */
    attempts: integer('attempts').notNull().default(0),
    /** Verifications made on the current SAT request (the back-off grows with them). */
    polls: integer('polls').notNull().default(0),
    /** SAT's last code for it (5000, 5003, 5004…) and message. */
    codigo: integer('codigo'),
    mensaje: text('mensaje'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [unique('sat_sync_requests_period_uq').on(t.jobId, t.direction, t.content, t.desde, t.hasta)],
);

/**
 * A package SAT made for a request, stored before it is imported (SAT lets a package be downloaded
 * twice and keeps it 72 hours): a retried import reads it here. `zip` is base64 text, as the e.firma
 * payload, so both drivers read it alike; it is emptied once the package is imported.
 */
export const satSyncPackages = pgTable(
  'sat_sync_packages',
  {
    requestId: text('request_id')
      .notNull()
      .references(() => satSyncRequests.id, { onDelete: 'cascade' }),
    packageId: text('package_id').notNull(),
    zip: text('zip'),
    imported: boolean('imported').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.requestId, t.packageId] })],
);
