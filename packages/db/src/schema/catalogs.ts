import { sql } from 'drizzle-orm';
import { boolean, customType, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const fiscalRegimes = pgTable('fiscal_regimes', {
  clave: text('clave').primaryKey(),
  descripcion: text('descripcion').notNull(),
  aplicaPersonaFisica: boolean('aplica_persona_fisica').notNull(),
  aplicaPersonaMoral: boolean('aplica_persona_moral').notNull(),
  fechaInicioVigencia: text('fecha_inicio_vigencia').notNull(),
  fechaFinVigencia: text('fecha_fin_vigencia'),
});

/**
 * c_ClaveProdServ. The search columns are generated from the description and similar words, so a
 * search reads precomputed values: `search_doc` (Spanish stems, accents folded) for full text,
 * `descripcion_norm` (lower-case, unaccented) for closeness. Misspellings go through `sat_lexicon`.
 */
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
    /** Set when a CSV import no longer holds the code (kept: favorites and CFDIs name it); cleared when it returns. */
    removedAt: timestamp('removed_at', { withTimezone: true, mode: 'date' }),
    searchDoc: tsvector('search_doc').generatedAlwaysAs(
      sql`to_tsvector('es_unaccent'::regconfig, descripcion || ' ' || coalesce(palabras_similares, ''))`,
    ),
    descripcionNorm: text('descripcion_norm').generatedAlwaysAs(sql`f_unaccent(lower(descripcion))`),
  },
  // Without fastupdate: the catalog is loaded once and searched all day, and the GIN pending list
  // (which a bulk load leaves, and which only VACUUM empties: never, in PGlite) is read linearly by
  // every search, many times slower on the full catalog (docs/benchmarks.md).
  (t) => [index('sat_products_search_doc_idx').using('gin', t.searchDoc).with({ fastupdate: false })],
);

/**
 * Every stem in `sat_products.search_doc`, kept by a trigger on insert and update; the stems only
 * removed codes held are pruned by the import that removes them. A search word that full text does not
 * know is corrected to its nearest stems here (trigram distance, GiST) instead of comparing the
 * whole query with 52,000 descriptions.
 */
export const satLexicon = pgTable('sat_lexicon', { lexeme: text('lexeme').primaryKey() }, (t) => [
  index('sat_lexicon_lexeme_trgm').using('gist', sql`${t.lexeme} gist_trgm_ops`),
]);
