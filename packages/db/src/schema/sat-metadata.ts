import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { profiles } from './profiles';
import { money } from './users';

/**
 * One line of SAT's metadata files a profile uploaded (docs/sat-status.md): what SAT knows of a CFDI
 * issued or received by the profile, whether or not Folio has its XML. A line whose UUID no stored
 * CFDI has is a **missing XML**; a CFDI imported later takes its status from here. Every column but
 * the status may be absent: the file needs only Uuid, Estatus and FechaCancelacion.
 */
export const satMetadata = pgTable(
  'sat_metadata',
  {
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    uuid: text('uuid').notNull(),
    rfcEmisor: text('rfc_emisor'),
    nombreEmisor: text('nombre_emisor'),
    rfcReceptor: text('rfc_receptor'),
    nombreReceptor: text('nombre_receptor'),
    /** FechaEmision as 'YYYY-MM-DDTHH:mm:ss' (Mexico local time). */
    fechaEmision: text('fecha_emision'),
    monto: money('monto'),
    /** EfectoComprobante: I, E, P, T, N. */
    efecto: text('efecto'),
    estatus: text('estatus', { enum: ['vigente', 'cancelado'] }).notNull(),
    fechaCancelacion: text('fecha_cancelacion'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.profileId, t.uuid] }),
    index('sat_metadata_profile_fecha_idx').on(t.profileId, t.fechaEmision),
  ],
);
