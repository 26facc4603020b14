import { and, asc, count, eq, inArray, max, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { prepared } from '../prepared';
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

/** Several records by code, in no particular order (unknown codes are left out). */
export function findSatProducts(db: Db, ids: string[]): Promise<SatProductRecord[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select(RECORD).from(satProducts).where(inArray(satProducts.id, ids));
}

/** What a model built from the catalog reads of each code, in code order. */
export function listSatProductsForModel(db: Db) {
  return db
    .select({
      id: satProducts.id,
      descripcion: satProducts.descripcion,
      palabrasSimilares: satProducts.palabrasSimilares,
      fechaFinVigencia: satProducts.fechaFinVigencia,
    })
    .from(satProducts)
    .orderBy(asc(satProducts.id));
}

/**
 * Names the catalog's current contents: any import, re-import or edit changes the row count or the
 * latest updated_at, so a model built from an older catalog can tell it is stale.
 */
export async function satCatalogVersion(db: Db): Promise<string> {
  const [row] = await db.select({ n: count(), at: max(satProducts.updatedAt) }).from(satProducts);
  return `${row?.n ?? 0}:${row?.at?.toISOString() ?? ''}`;
}

/**
 * Codes whose search document holds any of `words` (Spanish stems, accents folded), best ts_rank
 * first, codes only and no count: one input of the search by meaning, which passes the query's
 * words and the lexicon's readings of them. No fuzzy fallback: the meaning model covers what
 * matches no word.
 */
export async function rankSatByAnyWord(db: Db, words: string[], limit: number): Promise<string[]> {
  if (words.length === 0) return [];
  const tsq = sql`websearch_to_tsquery('es_unaccent', ${words.join(' or ')})`;
  const rows = await db
    .select({ id: satProducts.id })
    .from(satProducts)
    .where(sql`${satProducts.searchDoc} @@ ${tsq}`)
    .orderBy(sql`ts_rank(${satProducts.searchDoc}, ${tsq}, 1) desc`, asc(satProducts.id))
    .limit(limit);
  return rows.map((r) => r.id);
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
  const values = {
    text,
    iva: q.incluirIvaTrasladado || undefined,
    ieps: q.incluirIepsTrasladado || undefined,
    limit: q.limit,
    offset: q.offset,
  };
  if (!text) return page(db, 'all', values);
  if (/^\d{1,8}$/.test(text)) return page(db, 'code', values);
  const found = await page(db, 'words', values);
  return found.total > 0 ? found : page(db, 'fuzzy', values);
}

type SearchKind = 'all' | 'code' | 'words' | 'fuzzy';
type SearchValues = { text: string; iva?: string; ieps?: string; limit: number; offset: number };

const text = sql.placeholder('text');
const tsq = sql`websearch_to_tsquery('es_unaccent', ${text})`;
const needle = sql`f_unaccent(lower(${text}))`;
/** What each kind of search matches, and how it ranks (none: by code). */
const SEARCHES: Record<SearchKind, { match?: SQL; score?: SQL }> = {
  all: {},
  code: { match: sql`${satProducts.id} like ${text} || '%'` },
  words: {
    match: sql`${satProducts.searchDoc} @@ ${tsq}`,
    // ts_rank normalisation 1 divides by the log of the document length. A description that starts
    // with the query, and a shorter one, reads closer to what was asked: "Hoteles" before "Parcela
    // para hotel" for "hotel". (Cheap per row: thousands of rows can match.)
    score: sql`ts_rank(${satProducts.searchDoc}, ${tsq}, 1)
      + case when ${satProducts.descripcionNorm} like ${needle} || '%' then 0.5 else 0 end
      - length(${satProducts.descripcionNorm}) / 1000.0`,
  },
  fuzzy: {
    match: sql`${needle} <% ${satProducts.searchText}`,
    score: sql`word_similarity(${needle}, ${satProducts.searchText}) + similarity(${needle}, ${satProducts.descripcionNorm})`,
  },
};

/** The columns of a catalog record as the API serves it (`/sat/{id}`, search items, favorites). */
export const RECORD = {
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

/** One kind of search with the filters given, as two prepared statements: the page and the total. */
async function page(db: Db, kind: SearchKind, v: SearchValues) {
  const shape = `${kind}:${v.iva === undefined ? '' : 'iva'}:${v.ieps === undefined ? '' : 'ieps'}`;
  const { match, score } = SEARCHES[kind];
  const where = () =>
    and(
      match,
      v.iva === undefined ? undefined : eq(satProducts.incluirIvaTrasladado, sql.placeholder('iva')),
      v.ieps === undefined ? undefined : eq(satProducts.incluirIepsTrasladado, sql.placeholder('ieps')),
    );
  const [items, totals] = await Promise.all([
    v.limit > 0
      ? prepared(db, `satSearch:${shape}`, (c) =>
          c
            .select(RECORD)
            .from(satProducts)
            .where(where())
            .orderBy(...(score ? [sql`${score} desc`] : []), asc(satProducts.id))
            .limit(sql.placeholder('limit'))
            .offset(sql.placeholder('offset')),
        ).execute(v)
      : Promise.resolve([]),
    prepared(db, `satCount:${shape}`, (c) =>
      c.select({ n: count() }).from(satProducts).where(where()),
    ).execute(v),
  ]);
  return { items, total: totals[0]?.n ?? 0 };
}
