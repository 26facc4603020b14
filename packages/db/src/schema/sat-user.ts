import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { satProducts } from './catalogs';
import { users } from './users';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The searches of a user whose plan keeps history (plan-features §4), newest kept up to a cap. */
export const satSearchHistory = pgTable(
  'sat_search_history',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: ['basic', 'ai'] }).notNull(),
    query: text('query').notNull(),
    filtros: jsonb('filtros').$type<Record<string, unknown>>().notNull(),
    total: integer('total').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('sat_search_history_user_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    check('sat_search_history_tipo', sql`${t.tipo} in ('basic', 'ai')`),
  ],
);

/** A user's saved codes; the code must be in the catalog (a removed code stays, marked removed). */
export const satFavorites = pgTable(
  'sat_favorites',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clave: text('clave')
      .notNull()
      .references(() => satProducts.id),
    nota: text('nota'),
    addedAt: at('added_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.clave] }), index('sat_favorites_clave_idx').on(t.clave)],
);

export const SAT_ALERT_CAMBIOS = [
  'fin_vigencia',
  'iva',
  'ieps',
  'complemento',
  'descripcion',
  'eliminada',
] as const;
export type SatAlertCambio = (typeof SAT_ALERT_CAMBIOS)[number];

/**
 * One change a catalog import found in a favorited code, per user who favorited it. `notified_at`
 * is when the import run's mail about it was queued (or skipped: the plan had no alerts then).
 */
export const satAlerts = pgTable(
  'sat_alerts',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clave: text('clave').notNull(),
    cambio: text('cambio', { enum: SAT_ALERT_CAMBIOS }).notNull(),
    antes: text('antes'),
    despues: text('despues'),
    detectedAt: at('detected_at').notNull().defaultNow(),
    readAt: at('read_at'),
    notifiedAt: at('notified_at'),
  },
  (t) => [
    index('sat_alerts_user_idx').on(t.userId, t.detectedAt.desc(), t.id.desc()),
    index('sat_alerts_unnotified_idx').on(t.userId).where(sql`${t.notifiedAt} is null`),
  ],
);

/** Each CSV import of c_ClaveProdServ: start-up re-imports a file whose content differs from the last. */
export const satCatalogImports = pgTable('sat_catalog_imports', {
  id: text('id').primaryKey(),
  sha256: text('sha256').notNull(),
  rows: integer('rows').notNull(),
  removed: integer('removed').notNull(),
  alerts: integer('alerts').notNull(),
  finishedAt: at('finished_at').notNull().defaultNow(),
});
