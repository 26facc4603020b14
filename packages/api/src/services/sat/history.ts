import { randomUUID } from 'node:crypto';
import type { PlanLimits } from '@folio/billing';
import { clearSatHistory, listSatHistory, recordSatSearch } from '@folio/db/queries/sat-history';
import type { z } from 'zod';
import type { Context } from '../../context';
import type { OffsetPage } from '../../schemas/sat-user';
import { offsetPaginationOf } from '../pagination';
import { HISTORY_KEPT, requireSatFeature } from './rules';
import { toSatHistoryEntry } from './sat-user-dto';

export interface SearchRecord {
  tipo: 'basic' | 'ai';
  query: string | undefined;
  /** The filters the search was narrowed by (only those given). */
  filtros: Record<string, unknown>;
  total: number;
  /** The month's count of this kind of search with this one (its quota's): says when to prune. */
  counted: number;
}

/**
 * Searches between two prunes of a user's history. Pruning walks the index past the newest
 * HISTORY_KEPT entries and, for one user's searches arriving together, made each wait on the
 * other's delete of the same oldest row (docs/benchmarks.md): now every 16th search of a kind
 * prunes, a listing shows only the newest HISTORY_KEPT, and a user keeps at most ~2 × 15 more.
 */
export const PRUNE_EVERY = 16;

/**
 * Records a search in the user's history while the plan keeps one. Called once the answer is ready;
 * a failed write is logged and does not fail the search: the search was answered and counted, and
 * the history is a convenience beside it, not part of the answer.
 */
export async function recordSearch(ctx: Context, userId: string, limits: PlanLimits, s: SearchRecord) {
  if (!limits.satHasHistory) return;
  const filtros = Object.fromEntries(
    Object.entries(s.filtros).filter(([, v]) => v !== undefined && v !== ''),
  );
  try {
    await recordSatSearch(
      ctx.db,
      { id: randomUUID(), userId, tipo: s.tipo, query: s.query ?? '', filtros, total: s.total },
      HISTORY_KEPT,
      s.counted % PRUNE_EVERY === 0,
    );
  } catch (err) {
    ctx.log.warn({ err, requestId: ctx.req.requestId }, 'SAT search history: the search was not recorded');
  }
}

export async function searchHistory(ctx: Context, userId: string, page: z.infer<typeof OffsetPage>) {
  await requireSatFeature(ctx, userId, 'satHasHistory');
  const { rows, total } = await listSatHistory(ctx.db, userId, page, HISTORY_KEPT);
  return { data: rows.map(toSatHistoryEntry), pagination: offsetPaginationOf(total, page) };
}

export async function clearSearchHistory(ctx: Context, userId: string) {
  await requireSatFeature(ctx, userId, 'satHasHistory');
  const n = await clearSatHistory(ctx.db, userId);
  return {
    message: n === 1 ? 'Deleted 1 search from the history' : `Deleted ${n} searches from the history`,
  };
}
