import { getEntitlements } from '@folio/billing';
import { searchSatProducts } from '@folio/db/queries/catalogs';
import type { Context } from '../../context';
import { takeMonthlyQuota } from '../quota';
import { recordSearch } from './history';
import { toSatProduct } from './sat-dto';

export interface SatSearchInput {
  query?: string;
  incluir_iva_trasladado?: string;
  incluir_ieps_trasladado?: string;
  limit: number;
  offset: number;
}

/** A counted search: the plan caps how deep results go (satMaxResults) and how many searches a month. */
export async function searchCatalog(ctx: Context, userId: string, input: SatSearchInput) {
  const { limits } = await getEntitlements(ctx.db, userId);
  await takeMonthlyQuota(ctx, userId, 'sat_basic_search', limits.satBasicSearchesPerMonth, 'SAT search');
  const cap = limits.satMaxResults;
  const limit = cap === null ? input.limit : Math.max(0, Math.min(input.limit, cap - input.offset));
  const { items, total } = await searchSatProducts(ctx.db, {
    query: input.query,
    incluirIvaTrasladado: input.incluir_iva_trasladado,
    incluirIepsTrasladado: input.incluir_ieps_trasladado,
    limit,
    offset: input.offset,
  });
  await recordSearch(ctx, userId, limits, {
    tipo: 'basic',
    query: input.query,
    filtros: {
      incluir_iva_trasladado: input.incluir_iva_trasladado,
      incluir_ieps_trasladado: input.incluir_ieps_trasladado,
    },
    total,
  });
  return { items: items.map(toSatProduct), total, limit: items.length, offset: input.offset };
}
