import type { Executor } from '@folio/db';
import { efirmasNotOnVersion, setWrappedKey } from '@folio/db/queries/efirmas';
import { rewrap } from '../crypto/envelope';
import type { EfirmaKeyring } from './keyring';

/**
 * Master key rotation (docs/sat-sync.md#efirma): every record's data key re-wrapped by the current
 * version, the payloads untouched. Run after adding a version to EFIRMA_ENCRYPTION_KEY; once it
 * answers, older versions may be removed. Answers how many records it re-wrapped.
 */
export async function rewrapEfirmaKeys(db: Executor, keyring: EfirmaKeyring): Promise<number> {
  let done = 0;
  for (const row of await efirmasNotOnVersion(db, keyring.current)) {
    const next = rewrap(keyring, [row.profileId, row.id], row);
    if (await setWrappedKey(db, row.id, row, next)) done += 1;
  }
  return done;
}
