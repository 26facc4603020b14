// The tax detail and facts of CFDI stored before they existed (or derived by an older version), from
// their kept XML (docs/cfdi.md#taxes-by-rate, #facts):
// run at server start and by `pnpm db:backfill`; idempotent, and safe with several processes at once.
import { applicationsFrom, parseCfdi } from '@folio/cfdi';
import type { Db } from '@folio/db';
import {
  type ApplicationDetail,
  type CfdiTaxDetail,
  pendingTaxDetail,
  saveApplicationDetail,
  saveTaxDetail,
} from '@folio/db/queries/tax-detail';
import { applicationDetailOf, taxDetailOf, UNKNOWN_TAX_DETAIL } from './record';

/** `taxes_version` of a row whose stored XML no longer parses: its tax detail stays unknown. */
export const UNREADABLE_TAXES = 0;

export interface BackfillResult {
  /** Rows given their tax detail. */
  filled: number;
  /** Rows whose stored XML could not be read again (marked, not retried). */
  unreadable: number;
}

/**
 * Derives the tax detail of every CFDI that lacks the current one, `batch` rows per transaction. Rows another
 * process holds are skipped (it derives them), so this returns once nothing is left for it, or
 * after the batch under way when `signal` aborts (a shutdown).
 */
export async function backfillTaxDetail(
  db: Db,
  opts: { batch?: number; signal?: AbortSignal } = {},
): Promise<BackfillResult> {
  // A stored file may be up to 5 MB: 50 of them bound what one batch holds in memory.
  const batch = opts.batch ?? 50;
  const result: BackfillResult = { filled: 0, unreadable: 0 };
  while (!opts.signal?.aborted) {
    const taken = await db.transaction(async (tx) => {
      const rows = await pendingTaxDetail(tx, batch);
      const details: CfdiTaxDetail[] = [];
      const applications: ApplicationDetail[] = [];
      for (const { id, xml } of rows) {
        const parsed = xml === null ? undefined : parseCfdi(xml);
        if (!parsed?.ok) {
          details.push({ id, taxesVersion: UNREADABLE_TAXES, ...UNKNOWN_TAX_DETAIL });
          result.unreadable++;
          continue;
        }
        details.push({ id, ...taxDetailOf(parsed.cfdi) });
        for (const a of applicationsFrom(parsed.cfdi)) {
          applications.push({
            repCfdiId: id,
            relatedUuid: a.relatedUuid,
            numParcialidad: a.numParcialidad,
            ...applicationDetailOf(a),
          });
        }
        result.filled++;
      }
      await saveTaxDetail(tx, details);
      await saveApplicationDetail(tx, applications);
      return rows.length;
    });
    if (taken < batch) break;
    // Parsing is CPU work on the thread requests share: let them in between batches.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return result;
}
