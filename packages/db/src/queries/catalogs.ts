import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { fiscalRegimes, satProducts } from '../schema';

export type FiscalRegimeRow = typeof fiscalRegimes.$inferSelect;
export type SatProductRow = typeof satProducts.$inferSelect;

export function listFiscalRegimes(db: Db, tipoPersona?: 'FISICA' | 'MORAL'): Promise<FiscalRegimeRow[]> {
  const where =
    tipoPersona === 'FISICA'
      ? eq(fiscalRegimes.aplicaPersonaFisica, true)
      : tipoPersona === 'MORAL'
        ? eq(fiscalRegimes.aplicaPersonaMoral, true)
        : undefined;
  return db.select().from(fiscalRegimes).where(where).orderBy(asc(fiscalRegimes.clave));
}

export async function findSatProduct(db: Db, id: string): Promise<SatProductRow | undefined> {
  const [row] = await db.select().from(satProducts).where(eq(satProducts.id, id));
  return row;
}

export interface SatSearch {
  query?: string;
  incluirIvaTrasladado?: string;
  incluirIepsTrasladado?: string;
  limit: number;
  offset: number;
}

// These two expressions must stay identical to the ones indexed in the schema (sat_products_search_*).
const document = sql`to_tsvector('es_unaccent', ${satProducts.descripcion} || ' ' || coalesce(${satProducts.palabrasSimilares}, ''))`;
const haystack = sql`f_unaccent(lower(${satProducts.descripcion} || ' ' || coalesce(${satProducts.palabrasSimilares}, '')))`;

/**
 * Ranked catalog search: Spanish full-text (stemmed, accents folded) or trigram word similarity on
 * the description and similar words, ranked by relevance then code. Digits match code prefixes.
 */
export async function searchSatProducts(db: Db, q: SatSearch): Promise<{ items: SatProductRow[]; total: number }> {
  const text = q.query?.trim() ?? '';
  const filters: SQL[] = [];
  if (q.incluirIvaTrasladado) filters.push(eq(satProducts.incluirIvaTrasladado, q.incluirIvaTrasladado));
  if (q.incluirIepsTrasladado) filters.push(eq(satProducts.incluirIepsTrasladado, q.incluirIepsTrasladado));

  let match: SQL | undefined;
  let score: SQL | undefined;
  if (/^\d{1,8}$/.test(text)) {
    match = sql`${satProducts.id} like ${`${text}%`}`;
  } else if (text) {
    const tsq = sql`websearch_to_tsquery('es_unaccent', ${text})`;
    const needle = sql`f_unaccent(lower(${text}))`;
    match = sql`(${document} @@ ${tsq} or ${needle} <% ${haystack})`;
    const description = sql`f_unaccent(lower(${satProducts.descripcion}))`;
    // Full-text hits (every word, stemmed) outrank fuzzy ones; then how closely the description
    // itself reads like the query, so "Hoteles" beats "Parcela para hotel" for "hotel".
    score = sql`(case when ${document} @@ ${tsq} then 1 else 0 end
      + ts_rank(${document}, ${tsq})
      + word_similarity(${needle}, ${haystack})
      + 2 * similarity(${needle}, ${description})
      + case when ${description} like ${needle} || '%' then 0.5 else 0 end)`;
  }
  const where = and(match, ...filters);
  const [items, totals] = await Promise.all([
    q.limit > 0
      ? db
          .select()
          .from(satProducts)
          .where(where)
          .orderBy(...(score ? [sql`${score} desc`] : []), asc(satProducts.id))
          .limit(q.limit)
          .offset(q.offset)
      : Promise.resolve([]),
    db.select({ n: count() }).from(satProducts).where(where),
  ]);
  return { items, total: totals[0]?.n ?? 0 };
}
