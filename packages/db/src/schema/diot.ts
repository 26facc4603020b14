import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { profiles } from './profiles';
import { timestamps } from './users';

/**
 * The user's word on a DIOT supplier of a profile (RFC, or a foreign supplier's tax id): its tipo
 * de operación and, for 8 % IVA, its border region. Either may be null (keep the derived one).
 */
export const diotProveedores = pgTable(
  'diot_proveedores',
  {
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    clave: text('clave').notNull(),
    tipoOperacion: text('tipo_operacion', { enum: ['02', '03', '06', '07', '08', '85', '87'] }),
    region8: text('region_8', { enum: ['norte', 'sur'] }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.profileId, t.clave] })],
);
