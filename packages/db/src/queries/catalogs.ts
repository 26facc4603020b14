import { and, asc, count, eq, inArray, isNull, max, type SQL, sql } from 'drizzle-orm';
import { type Db, type Executor, rowsOf } from '../client';
import { prepared } from '../prepared';
import { fiscalRegimes, satLexicon, satProducts } from '../schema';

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

/**
 * Codes the catalog holds now: a code the last import no longer had keeps its row (favorites,
 * alerts and CFDIs name it) with `removed_at` set, and no search or model sees it.
 */
export const inCatalog = isNull(satProducts.removedAt);

/** One record by code, removed ones included (`removedAt` says so): the caller decides what that means. */
export async function findSatProduct(db: Db, id: string): Promise<SatProductRecord | undefined> {
  const [row] = await db.select(RECORD).from(satProducts).where(eq(satProducts.id, id));
  return row;
}

/** Several current records by code, in no particular order (unknown and removed codes are left out). */
export function findSatProducts(db: Db, ids: string[]): Promise<SatProductRecord[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select(RECORD)
    .from(satProducts)
    .where(and(inArray(satProducts.id, ids), inCatalog));
}

/** What a model built from the catalog reads of each current code, in code order. */
export function listSatProductsForModel(db: Db) {
  return db
    .select({
      id: satProducts.id,
      descripcion: satProducts.descripcion,
      palabrasSimilares: satProducts.palabrasSimilares,
      fechaFinVigencia: satProducts.fechaFinVigencia,
    })
    .from(satProducts)
    .where(inCatalog)
    .orderBy(asc(satProducts.id));
}

/**
 * Names the catalog's current contents: any import, re-import, removal or edit changes the count of
 * current codes, the latest updated_at or the latest removed_at, so a model built from an older
 * catalog can tell it is stale.
 */
export async function satCatalogVersion(db: Db): Promise<string> {
  const [row] = await db
    .select({
      n: sql<number>`count(*) filter (where ${inCatalog})`.mapWith(Number),
      at: max(satProducts.updatedAt),
      removed: max(satProducts.removedAt),
    })
    .from(satProducts);
  return `${row?.n ?? 0}:${row?.at?.toISOString() ?? ''}:${row?.removed?.toISOString() ?? ''}`;
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
    .where(and(sql`${satProducts.searchDoc} @@ ${tsq}`, inCatalog))
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
 * decides what matches: first every word of the query; when that finds nothing (a sentence, a typo),
 * any of its words, each word full text does not know replaced by its nearest catalog stems
 * (`looseQuery`), rows matching more of the words first. Stopwords never count.
 * Ranked by relevance, then code. A digits-only query matches code prefixes.
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
  if (found.total > 0) return found;
  const loose = await looseQuery(db, text);
  return loose ? page(db, 'anyWord', { ...values, text: loose }) : found;
}

/**
 * The query's words as stems the catalog has, one line per word (stopwords left out), each line a
 * tsquery: the word's stem when the catalog has it; else, for a misspelling, its two nearest
 * catalog stems within trigram similarity 0.3 (`%`, through the GiST index on sat_lexicon) OR-ed; a
 * stem of three letters or less has too few trigrams for that and is dropped. Null when no word is
 * left.
 */
async function looseQuery(db: Db, text: string): Promise<string | null> {
  const result = await db.execute(sql`
      with words as (select unnest(tsvector_to_array(to_tsvector('es_unaccent', ${text}))) as w),
      stems as (
        select w, w as stem from words where exists (select from ${satLexicon} l where l.lexeme = w)
        union all
        select w, near.lexeme from words cross join lateral (
          select l.lexeme from ${satLexicon} l where length(w) > 3 and l.lexeme % w order by l.lexeme <-> w limit 2
        ) near
        where not exists (select from ${satLexicon} l where l.lexeme = w)
      )
      select string_agg(alternatives, E'\n') as q from (
        select string_agg(${quotedLexeme(sql`stem`)}, ' | ') as alternatives
        from stems group by w
      ) per_word`);
  return rowsOf<{ q: string | null }>(result)[0]?.q ?? null;
}

/** A lexeme as tsquery text quotes it (a quote or backslash escaped by a backslash): not stemmed again. */
const quotedLexeme = (lexeme: SQL) =>
  sql`'''' || replace(replace(${lexeme}, '\\', '\\\\'), '''', '\\''') || ''''`;

/**
 * Drops from sat_lexicon the stems only the codes this transaction marked removed held (their
 * `removed_at` is the transaction's now()): a misspelt word corrected to one of them would find
 * nothing, and would crowd out the nearest stem a current code has.
 */
export async function pruneSatLexicon(tx: Executor): Promise<void> {
  await tx.execute(sql`
    delete from ${satLexicon} l
    where l.lexeme in (
        select unnest(tsvector_to_array(${satProducts.searchDoc})) from ${satProducts}
        where ${satProducts.removedAt} = now())
      and not exists (
        select from ${satProducts}
        where ${inCatalog} and ${satProducts.searchDoc} @@ (${quotedLexeme(sql`l.lexeme`)})::tsquery)`);
}

type SearchKind = 'all' | 'code' | 'words' | 'anyWord';
type SearchValues = { text: string; iva?: string; ieps?: string; limit: number; offset: number };

const text = sql.placeholder('text');
/**
 * ts_rank normalisation 1 divides by the log of the document length. A description that starts with
 * the query, and a shorter one, reads closer to what was asked: "Hoteles" before "Parcela para
 * hotel" for "hotel". (Cheap per row: thousands of rows can match.)
 */
const rank = (tsq: SQL, startsWithQuery?: SQL) => sql`ts_rank(${satProducts.searchDoc}, ${tsq}, 1)
      + ${startsWithQuery ? sql`case when ${startsWithQuery} then 0.5 else 0 end` : sql`0`}
      - length(${satProducts.descripcionNorm}) / 1000.0`;
const allWords = sql`websearch_to_tsquery('es_unaccent', ${text})`;
// `text` is looseQuery's answer here, a tsquery per line (lexemes already: a cast, not a parse). A row
// matches with any word; the words it matches come first in its rank.
const anyWord = sql`replace(${text}, E'\n', ' | ')::tsquery`;
// (The inner select makes the array an InitPlan: parsed once, not once per row.)
const wordsMatched = sql`(select count(*) from unnest((select string_to_array(${text}, E'\n')::tsquery[])) w
      where ${satProducts.searchDoc} @@ w)`;
/** What each kind of search matches, and how it ranks (none: by code). */
const SEARCHES: Record<SearchKind, { match?: SQL; score?: SQL }> = {
  all: {},
  code: { match: sql`${satProducts.id} like ${text} || '%'` },
  words: {
    match: sql`${satProducts.searchDoc} @@ ${allWords}`,
    score: rank(allWords, sql`${satProducts.descripcionNorm} like f_unaccent(lower(${text})) || '%'`),
  },
  anyWord: {
    match: sql`${satProducts.searchDoc} @@ ${anyWord}`,
    score: sql`${wordsMatched} + ${rank(anyWord)}`,
  },
};

/**
 * The columns of a catalog record as the API serves it (`/sat/{id}`, search items, favorites), with
 * `removedAt` (null for every code a search returns).
 */
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
  removedAt: satProducts.removedAt,
};
export type SatProductRecord = { [K in keyof typeof RECORD]: SatProductRow[K] };

/**
 * One kind of search with the filters given, as one prepared statement: the page with the total on
 * each row (`matching`, an uncorrelated subquery PostgreSQL runs once), a round trip and a pool
 * connection fewer than a count beside it. A page past the end holds no row to carry it, so then
 * (and for a page of no rows) the count is asked alone.
 */
async function page(db: Db, kind: SearchKind, v: SearchValues) {
  const shape = `${kind}:${v.iva === undefined ? '' : 'iva'}:${v.ieps === undefined ? '' : 'ieps'}`;
  const { match, score } = SEARCHES[kind];
  const where = () =>
    and(
      inCatalog,
      match,
      v.iva === undefined ? undefined : eq(satProducts.incluirIvaTrasladado, sql.placeholder('iva')),
      v.ieps === undefined ? undefined : eq(satProducts.incluirIepsTrasladado, sql.placeholder('ieps')),
    );
  const counted = async () =>
    (
      await prepared(db, `satCount:${shape}`, (c) =>
        c.select({ n: count() }).from(satProducts).where(where()),
      ).execute(v)
    )[0]?.n ?? 0;
  if (v.limit <= 0) return { items: [], total: await counted() };
  const rows = await prepared(db, `satSearch:${shape}`, (c) =>
    c
      .select({
        ...RECORD,
        matching: sql<number>`(select count(*) from ${satProducts} where ${where()})::int`.mapWith(Number),
      })
      .from(satProducts)
      .where(where())
      .orderBy(...(score ? [sql`${score} desc`] : []), asc(satProducts.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset')),
  ).execute(v);
  const total = rows[0]?.matching ?? (v.offset > 0 ? await counted() : 0);
  return { items: rows.map(({ matching: _, ...record }) => record), total };
}
