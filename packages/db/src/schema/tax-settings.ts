import { numeric, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { profiles } from './profiles';
import { money, timestamps } from './users';

// What a profile tells Folio about its own returns (docs/iva-isr.md): figures Folio cannot derive
// from its CFDI.

/** LIVA 5-B: the previous year's IVA proportion, fixed by the taxpayer for a year (a percentage). */
export const ivaProporcion5b = pgTable(
  'iva_proporcion_5b',
  {
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    anio: smallint('anio').notNull(),
    proporcion: numeric('proporcion', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.profileId, t.anio] })],
);

/** A RESICO monthly provisional payment as actually paid (LISR 113-E), overriding the computed one in 113-F. */
export const pagosProvisionales = pgTable(
  'pagos_provisionales',
  {
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    anio: smallint('anio').notNull(),
    mes: smallint('mes').notNull(),
    isrPagado: money('isr_pagado').notNull(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.profileId, t.anio, t.mes] })],
);
