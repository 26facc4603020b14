import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps, users } from './users';

export interface ValidationFlags {
  validarRFCIngresos: boolean;
  validarRFCGastos: boolean;
  validarRegimenFiscal: boolean;
  validarUUIDDuplicado: boolean;
  bloquearSiRFCNoCoincide: boolean;
  bloquearSiRegimenNoCoincide: boolean;
}

/** A taxpayer (one RFC) whose CFDI and expenses a user tracks. */
export const profiles = pgTable(
  'profiles',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    nombre: text('nombre').notNull(),
    rfc: text('rfc').notNull(),
    tipoPersona: text('tipo_persona', { enum: ['FISICA', 'MORAL'] }).notNull(),
    regimenesFiscales: jsonb('regimenes_fiscales').$type<string[]>().notNull().default([]),
    validacionesHabilitadas: jsonb('validaciones_habilitadas').$type<ValidationFlags>().notNull(),
    frozen: boolean('frozen').notNull().default(false),
    frozenReason: text('frozen_reason', { enum: ['PLAN_LIMIT'] }),
    frozenAt: timestamp('frozen_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('profiles_user_rfc_uq').on(t.userId, t.rfc),
    index('profiles_user_created_idx').on(t.userId, t.createdAt),
    index('profiles_rfc_idx').on(t.rfc),
  ],
);
