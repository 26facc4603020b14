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

export async function findSatProduct(db: Db, id: string): Promise<SatProductRecord | undefined> {
  const [row] = await db.select(RECORD).from(satProducts).where(eq(satProducts.id, id));
  return row;
}

export interface SatSearch {
  query?: string;
  incluirIvaTrasladado?: string;
  incluirIepsTrasladado?: string;
  limit: number;
  offset: number;
}

/**
 * Ranked catalog search over the generated search columns. Full text (Spanish stems, accents folded)
 * decides what matches; only when it finds nothing does trigram word similarity take over, so a
 * typo still finds something without fuzzy candidates slowing down every search. Ranked by
 * relevance, then code. A digits-only query matches code prefixes.
 */
export async function searchSatProducts(
  db: Db,
  q: SatSearch,
): Promise<{ items: SatProductRecord[]; total: number }> {
  const text = q.query?.trim() ?? '';
  const filters: SQL[] = [];
  if (q.incluirIvaTrasladado) filters.push(eq(satProducts.incluirIvaTrasladado, q.incluirIvaTrasladado));
  if (q.incluirIepsTrasladado) filters.push(eq(satProducts.incluirIepsTrasladado, q.incluirIepsTrasladado));

  if (!text) return page(db, and(...filters), undefined, q);
  if (/^\d{1,8}$/.test(text))
    return page(db, and(sql`${satProducts.id} like ${`${text}%`}`, ...filters), undefined, q);

  const tsq = sql`websearch_to_tsquery('es_unaccent', ${text})`;
  const needle = sql`f_unaccent(lower(${text}))`;
  // A description that starts with the query, and a shorter one, reads closer to what was asked:
  // "Hoteles" before "Parcela para hotel" for "hotel". (Cheap per row: thousands of rows can match.)
  const closeness = sql`case when ${satProducts.descripcionNorm} like ${needle} || '%' then 0.5 else 0 end
    - length(${satProducts.descripcionNorm}) / 1000.0`;
  const fullText = and(sql`${satProducts.searchDoc} @@ ${tsq}`, ...filters);
  // ts_rank normalisation 1 divides by the log of the document length.
  const found = await page(db, fullText, sql`ts_rank(${satProducts.searchDoc}, ${tsq}, 1) + ${closeness}`, q);
  if (found.total > 0) return found;
  const fuzzy = and(sql`${needle} <% ${satProducts.searchText}`, ...filters);
  return page(
    db,
    fuzzy,
    sql`word_similarity(${needle}, ${satProducts.searchText}) + similarity(${needle}, ${satProducts.descripcionNorm})`,
    q,
  );
}

const RECORD = {
  id: satProducts.id,
  descripcion: satProducts.descripcion,
  incluirIvaTrasladado: satProducts.incluirIvaTrasladado,
  incluirIepsTrasladado: satProducts.incluirIepsTrasladado,
  complementoQueDebeIncluir: satProducts.complementoQueDebeIncluir,
  fechaInicioVigencia: satProducts.fechaInicioVigencia,
  fechaFinVigencia: satProducts.fechaFinVigencia,
  estimuloFranjaFronteriza: satProducts.estimuloFranjaFronteriza,
  palabrasSimilares: satProducts.palabrasSimilares,
  createdAt: satProducts.createdAt,
  updatedAt: satProducts.updatedAt,
};
export type SatProductRecord = { [K in keyof typeof RECORD]: SatProductRow[K] };

async function page(db: Db, where: SQL | undefined, score: SQL | undefined, q: SatSearch) {
  const [items, totals] = await Promise.all([
    q.limit > 0
      ? db
          .select(RECORD)
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
