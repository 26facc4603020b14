import { CHECKOUT_PLANS, getEntitlements, PLAN_LIMITS, QUOTA_TIME_ZONE } from '@folio/billing';
import type { Db } from '@folio/db';
import { findSatProducts, rankSatByAnyWord } from '@folio/db/queries/catalogs';
import type { Context } from '../../context';
import { planRequired } from '../../errors';
import { takeMonthlyQuota } from '../quota';
import { recordSearch } from './history';
import { withMeaningModel } from './meaning/cache';
import { explain } from './meaning/explain';
import { intentFactor, intentOf } from './meaning/intent';
import { analyzeQuery, type QueryTerm, rankByMeaning, selectiveWords } from './meaning/query';
import { words } from './meaning/text';
import { toSatProduct } from './sat-dto';

const plansWithAiSearch = CHECKOUT_PLANS.filter((p) => PLAN_LIMITS[p].satAISearchesPerMonth !== 0).join(
  ' or ',
);
export const AI_SEARCH_REQUIRED = `SAT search by meaning requires the ${plansWithAiSearch} plan`;

export interface SatAiSearchInput {
  query: string;
  limit: number;
  offset: number;
}

/**
 * The search by meaning, as a plan sells it: FREE (0 a month) gets a 403 naming the plans that
 * include it, every other search takes one unit of `satAISearchesPerMonth` (429 past it), results
 * go no deeper than `satMaxResults`, and `explicacion` comes with `satHasAIExplanations`.
 */
export async function aiSearchCatalog(ctx: Context, userId: string, input: SatAiSearchInput) {
  const { limits } = await getEntitlements(ctx.db, userId);
  if (limits.satAISearchesPerMonth === 0) throw planRequired(AI_SEARCH_REQUIRED);
  // The search runs while the quota is taken; its answer is dropped when the quota says no.
  const search = searchByMeaning(ctx.db, input.query);
  search.catch(() => {});
  const used = await takeMonthlyQuota(
    ctx,
    userId,
    'sat_ai_search',
    limits.satAISearchesPerMonth,
    'SAT search by meaning',
  );
  const { codes, terms } = await search;
  const cap = limits.satMaxResults;
  const limit = cap === null ? input.limit : Math.max(0, Math.min(input.limit, cap - input.offset));
  const page = codes.slice(input.offset, input.offset + limit);
  const rows = new Map(
    (
      await findSatProducts(
        ctx.db,
        page.map((c) => c.id),
      )
    ).map((r) => [r.id, r]),
  );
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: QUOTA_TIME_ZONE }).format(new Date());
  const items = page.flatMap(({ id, score }) => {
    const row = rows.get(id);
    if (!row) return []; // removed since the model was built
    const item = { ...toSatProduct(row), score };
    return [limits.satHasAIExplanations ? { ...item, explicacion: explain(row, terms, today) } : item];
  });
  await recordSearch(ctx, userId, limits, {
    tipo: 'ai',
    query: input.query,
    filtros: {},
    total: codes.length,
    counted: used,
  });
  return { items, total: codes.length, limit: items.length, offset: input.offset, query: input.query };
}

/** How deep each ranking is read before fusing. */
const DEPTH = 100;
/** Reciprocal rank fusion constant (Cormack et al. 2009) and each ranking's say in it. */
const RRF_K = 60;
const MEANING_WEIGHT = 1;
const FULL_TEXT_WEIGHT = 0.5;

/**
 * Codes for a query by meaning, best first, each with a score in (0, 1]: reciprocal rank fusion
 * of the meaning model's ranking (lexicon + TF-IDF + latent space) and PostgreSQL's full-text
 * ranking of the query's telling words and their lexicon readings, as a share of what a code
 * ranked first by both would get; codes of the other kind than the sentence's (goods or a service,
 * meaning/intent.ts) count for less in both. Free of plan rules, so other features (bench, history) can call it.
 */
export async function searchByMeaning(
  db: Db,
  query: string,
): Promise<{ codes: { id: string; score: number }[]; terms: QueryTerm[] }> {
  return withMeaningModel(db, async (model) => {
    const terms = analyzeQuery(model, query);
    const intent = intentOf(words(query));
    // The database ranks the words while the model ranks in memory.
    const wordRanking = rankSatByAnyWord(db, selectiveWords(model, terms), DEPTH);
    const meaning = rankByMeaning(model, terms, DEPTH, intent).map((r) => model.ids[r.doc]!);
    const fullText = await wordRanking;
    const fused = new Map<string, number>();
    const add = (ranking: string[], weight: number) => {
      ranking.forEach((id, rank) => {
        fused.set(id, (fused.get(id) ?? 0) + (weight * intentFactor(intent, id)) / (RRF_K + rank + 1));
      });
    };
    add(meaning, MEANING_WEIGHT);
    add(fullText, FULL_TEXT_WEIGHT);
    const best = (MEANING_WEIGHT + FULL_TEXT_WEIGHT) / (RRF_K + 1);
    const codes = [...fused]
      .map(([id, s]) => ({ id, score: Math.round((s / best) * 1e4) / 1e4 }))
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    return { codes, terms };
  });
}
