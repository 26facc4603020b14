// The tax detail and facts of CFDI stored before they existed (or derived by an older version), from
// their kept XML (docs/cfdi.md#taxes-by-rate, #facts):
// run at server start and by `pnpm db:backfill`; idempotent, and safe with several processes at once.
import { applicationsFrom, type Cfdi, creditedUuids, parseCfdi } from '@folio/cfdi';
import type { Db } from '@folio/db';
import { savePaymentStates } from '@folio/db/queries/cfdis';
import {
  type ApplicationDetail,
  type CfdiTaxDetail,
  pendingTaxDetail,
  saveApplicationDetail,
  saveTaxDetail,
} from '@folio/db/queries/tax-detail';
import { NO_STATE, refreshPaymentState } from './payment-state';
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
    const touched = new Map<string, Set<string>>();
    const traslados: string[] = [];
    const taken = await db.transaction(async (tx) => {
      const rows = await pendingTaxDetail(tx, batch);
      const details: CfdiTaxDetail[] = [];
      const applications: ApplicationDetail[] = [];
      for (const { id, profileId, xml } of rows) {
        const parsed = xml === null ? undefined : parseCfdi(xml);
        if (!parsed?.ok) {
          details.push({ id, taxesVersion: UNREADABLE_TAXES, ...UNKNOWN_TAX_DETAIL });
          result.unreadable++;
          continue;
        }
        details.push({ id, ...taxDetailOf(parsed.cfdi) });
        if (parsed.cfdi.tipoDeComprobante === 'T') traslados.push(id);
        else touch(touched, profileId, paymentKeys(parsed.cfdi));
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
    await refreshBackfilled(db, touched, traslados);
    if (taken < batch) break;
    // Parsing is CPU work on the thread requests share: let them in between batches.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return result;
}

/** The invoices whose payment state a CFDI bears on: itself, those it pays (REP) or credits (E). */
const paymentKeys = (cfdi: Cfdi) => [
  cfdi.uuid,
  ...applicationsFrom(cfdi).map((a) => a.relatedUuid),
  ...creditedUuids(cfdi),
];

function touch(touched: Map<string, Set<string>>, profileId: string, uuids: string[]) {
  const keys = touched.get(profileId) ?? new Set<string>();
  touched.set(profileId, keys);
  for (const uuid of uuids) keys.add(uuid);
}

/**
 * The payment state of a batch's invoices recomputed by the current rules (tax-rules §3: the
 * balance follows ImpPagado, 03/07 notes count, a nómina is paid on its FechaPago, a traslado has
 * none), in its own transaction after the batch's: refreshPaymentState takes its locks in one
 * order, never while this process holds a batch's rows, so two back-fills cannot deadlock.
 */
async function refreshBackfilled(db: Db, touched: Map<string, Set<string>>, traslados: string[]) {
  if (touched.size === 0 && traslados.length === 0) return;
  await db.transaction(async (tx) => {
    for (const profileId of [...touched.keys()].sort()) {
      await refreshPaymentState(tx, profileId, [...touched.get(profileId)!]);
    }
    await savePaymentStates(
      tx,
      traslados.map((id) => ({ id, ...NO_STATE })),
    );
  });
}
