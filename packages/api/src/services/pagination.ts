import type { z } from 'zod';
import type { OffsetPage } from '../schemas/sat-user';

/**
 * A listing's `pagination` (the Pagination schema) for a page of `limit` rows out of `total`; a
 * search's total past the cap is a lower bound (`totalExact` false), and pages follow from it.
 */
export function paginationOf(total: number, page: number, limit: number, totalExact = true) {
  return { total, page, limit, totalPages: Math.ceil(total / limit), totalExact };
}

/** The SAT history and alerts listings' `pagination`, with the `offset` they are paged by. */
export function offsetPaginationOf(total: number, page: z.infer<typeof OffsetPage>) {
  return {
    ...paginationOf(total, Math.floor(page.offset / page.limit) + 1, page.limit),
    offset: page.offset,
  };
}
