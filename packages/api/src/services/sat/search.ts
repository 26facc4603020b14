import { searchSatProducts } from '@folio/db/queries/catalogs';
import type { Context } from '../../context';
import { takePlanQuota } from '../quota';
import { recordSearch } from './history';
import { toSatProduct } from './sat-dto';

export interface SatSearchInput {
  query?: string;
  incluir_iva_trasladado?: string;
  incluir_ieps_trasladado?: string;
  limit: number;
  offset: number;
}

/**
 * A counted search: the plan caps how deep results go (satMaxResults) and how many searches a month.
 * The search runs while the quota is taken with the plan read beside it (one statement): its page is
 * cut to the plan's depth afterwards (the same rows, the order being the same), and dropped when the
 * quota says no. Two round trips before the history's write instead of four (docs/benchmarks.md).
 */
export async function searchCatalog(ctx: Context, userId: string, input: SatSearchInput) {
  const search = searchSatProducts(ctx.db, {
    query: input.query,
    incluirIvaTrasladado: input.incluir_iva_trasladado,
    incluirIepsTrasladado: input.incluir_ieps_trasladado,
    limit: input.limit,
    offset: input.offset,
  });
  search.catch(() => {});
  const { limits, used } = await takePlanQuota(
    ctx,
    userId,
    'sat_basic_search',
    (l) => l.satBasicSearchesPerMonth,
    'SAT search',
  );
  const found = await search;
  const cap = limits.satMaxResults;
  const items = cap === null ? found.items : found.items.slice(0, Math.max(0, cap - input.offset));
  await recordSearch(ctx, userId, limits, {
    tipo: 'basic',
    query: input.query,
    filtros: {
      incluir_iva_trasladado: input.incluir_iva_trasladado,
      incluir_ieps_trasladado: input.incluir_ieps_trasladado,
    },
    total: found.total,
    counted: used,
  });
  return { items: items.map(toSatProduct), total: found.total, limit: items.length, offset: input.offset };
}
