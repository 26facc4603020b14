// The search dictionary (docs/design.md#search) of accounts whose CFDI were stored before it existed:
// run at server start and by `pnpm db:backfill`; idempotent, and safe with several processes at once
// (rows added meanwhile are added by the triggers that keep the dictionary).
import type { Db } from '@folio/db';
import {
  finishSearchDictionary,
  noteSearchDictionary,
  pendingSearchDictionaryUser,
} from '@folio/db/queries/search-dictionary';

/** Fills the dictionary of every pending account, `batch` CFDI a statement; returns the accounts done. */
export async function backfillSearchDictionary(
  db: Db,
  opts: { batch?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const batch = opts.batch ?? 5_000;
  let accounts = 0;
  for (
    let userId = await pendingSearchDictionaryUser(db);
    userId;
    userId = await pendingSearchDictionaryUser(db)
  ) {
    // '' sorts before every id.
    let after: string | undefined = '';
    while (after !== undefined) {
      if (opts.signal?.aborted) return accounts;
      after = await noteSearchDictionary(db, userId, after, batch);
      // CPU work on the database the requests share: let them in between batches.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await finishSearchDictionary(db, userId);
    accounts++;
  }
  return accounts;
}
