import type { Executor } from '@folio/db';

// The sync's job names and payloads, apart from its workers so the service context can name the
// sender without importing them.

export const SYNC_JOB = 'sat.sync';
export const DAILY_SYNC_JOB = 'sat.daily';

export type SyncJobs = {
  /** One sync job's next steps; `step` makes each follow-up's queue id unique and repeatable. */
  'sat.sync': { jobId: string; step?: number };
  /** Each morning: PRO profiles with a stored e.firma get their metadata sync (and missing CFDI's). */
  'sat.daily': Record<string, never>;
  /** Each morning: owners of stored e.firmas expiring within 30 days are mailed, once per e.firma. */
  'efirma.expiry': Record<string, never>;
};

/** What the services need to enqueue a sync job (Deps.jobs: the app's queue). */
export interface SyncJobSender {
  enqueue(
    name: typeof SYNC_JOB,
    payload: SyncJobs['sat.sync'],
    opts?: { tx?: Executor; id?: string; startAfter?: Date | number },
  ): Promise<string | null>;
  wake(name: typeof SYNC_JOB): void;
}
