import type { Db } from '@folio/db';
import { setSyncJob } from '@folio/db/queries/sat-sync';
import { emit } from '../webhooks/events';

/**
 * A job's end and its webhook event (`sat_sync.completed`, or `sat_sync.failed` with the reason) in
 * one transaction: the event exists exactly when the end does (docs/webhooks.md).
 */
export async function endSyncJob(
  db: Db,
  job: { id: string; profileId: string },
  error?: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const updated_at = new Date().toISOString();
    const owner = { profileId: job.profileId };
    const ids = { sync_id: job.id, profile_id: job.profileId };
    if (error === undefined) {
      await setSyncJob(tx, job.id, { estado: 'terminada' });
      await emit(tx, owner, 'sat_sync.completed', [{ ...ids, updated_at }]);
    } else {
      await setSyncJob(tx, job.id, { estado: 'error', error });
      await emit(tx, owner, 'sat_sync.failed', [{ ...ids, error, updated_at }]);
    }
  });
}
