import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const fiscalRegimes = pgTable('fiscal_regimes', {
  clave: text('clave').primaryKey(),
  descripcion: text('descripcion').notNull(),
  aplicaPersonaFisica: boolean('aplica_persona_fisica').notNull(),
  aplicaPersonaMoral: boolean('aplica_persona_moral').notNull(),
  fechaInicioVigencia: text('fecha_inicio_vigencia').notNull(),
  fechaFinVigencia: text('fecha_fin_vigencia'),
});

/** c_ClaveProdServ. Search indexes use f_unaccent/es_unaccent from the extensions migration. */
export const satProducts = pgTable(
  'sat_products',
  {
    id: text('id').primaryKey(),
    descripcion: text('descripcion').notNull(),
    incluirIvaTrasladado: text('incluir_iva_trasladado').notNull(),
    incluirIepsTrasladado: text('incluir_ieps_trasladado').notNull(),
    complementoQueDebeIncluir: text('complemento_que_debe_incluir'),
    fechaInicioVigencia: text('fecha_inicio_vigencia').notNull(),
    fechaFinVigencia: text('fecha_fin_vigencia'),
    estimuloFranjaFronteriza: text('estimulo_franja_fronteriza').notNull(),
    palabrasSimilares: text('palabras_similares'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('sat_products_search_trgm').using(
      'gin',
      sql`f_unaccent(lower(${t.descripcion} || ' ' || coalesce(${t.palabrasSimilares}, ''))) gin_trgm_ops`,
    ),
    index('sat_products_search_fts').using(
      'gin',
      sql`to_tsvector('es_unaccent', ${t.descripcion} || ' ' || coalesce(${t.palabrasSimilares}, ''))`,
    ),
  ],
);
