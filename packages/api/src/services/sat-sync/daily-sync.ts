import { randomUUID } from 'node:crypto';
import { getEntitlements } from '@folio/billing';
import {
  insertSyncJobOnce,
  insertSyncRequests,
  missingXmlDays,
  type NewSyncRequest,
  profileRfcOf,
  profilesWithEfirma,
  type SyncJobRow,
} from '@folio/db/queries/sat-sync';
import type { Direction } from '@folio/sat/plain';
import { addDays } from '@folio/sat/plain';
import type { Deps } from '../../context';
import type { JobQueue } from '../jobs/queue';
import { stableJobId } from '../jobs/sql-adapters';
import { dayRuns } from './day-runs';
import type { SyncJobs } from './sync-job-names';
import { mexicoToday } from './sync-period';

// PRO's daily sync (integrations.md §1): each profile with a stored e.firma gets, once a day, a
// metadata job in both directions from the 1st of the previous month to yesterday (CFDI are stamped
// up to 72 hours after their date, cancellations come later); when it ends, a CFDI job asking SAT
// only for the days whose metadata lists UUIDs Folio lacks. The jobs' ids come from (profile, day),
// so a second run the same day (two servers, a restart) adds nothing.

const DAILY_PLANS = new Set(['PRO', 'ENTERPRISE']);

/** The daily period for `today` (YYYY-MM-DD): the 1st of the previous month → yesterday. */
export function dailyPeriod(today: string): { desde: string; hasta: string } {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const prev = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  return { desde: `${prev}-01`, hasta: addDays(today, -1) };
}

/**
 * Enqueues the day's metadata job of every PRO profile with a usable e.firma (not refused by SAT,
 * not expired: SAT would refuse it every day); returns how many were new.
 */
export async function enqueueDailySyncs(
  deps: Deps,
  queue: JobQueue<SyncJobs>,
  now = new Date(),
): Promise<number> {
  const today = mexicoToday(now);
  const period = dailyPeriod(today);
  let created = 0;
  for (const p of await profilesWithEfirma(deps.db, now)) {
    const { plan } = await getEntitlements(deps.db, p.userId);
    if (!DAILY_PLANS.has(plan)) continue;
    const id = stableJobId('sat.daily', p.profileId, today);
    const fresh = await deps.db.transaction(async (tx) => {
      const inserted = await insertSyncJobOnce(tx, {
        id,
        profileId: p.profileId,
        userId: p.userId,
        ...period,
        tipo: 'ambos',
        contenido: 'metadata',
        origen: 'diario',
      });
      if (inserted) await queue.enqueue('sat.sync', { jobId: id }, { tx, id });
      return inserted;
    });
    if (fresh) created++;
  }
  queue.wake('sat.sync');
  return created;
}

/**
 * After a daily metadata job: one CFDI job whose requests ask SAT only for the days whose metadata
 * lists a UUID the profile lacks, per direction, consecutive days as one request (day-runs.ts);
 * none when nothing is missing. The job and its requests commit together, so its first step finds
 * them planned.
 */
export async function enqueueMissingCfdi(
  deps: Deps,
  queue: JobQueue<SyncJobs>,
  job: SyncJobRow,
): Promise<void> {
  if (job.origen !== 'diario' || job.contenido !== 'metadata') return;
  const rfc = (await profileRfcOf(deps.db, job.profileId)) ?? '';
  const missing = await missingXmlDays(deps.db, job.profileId, rfc, job);
  // A line naming neither RFC may be either: its day is asked in both directions.
  const daysOf = (direction: Direction) =>
    missing.filter((m) => m.direction === direction || m.direction === null).map((m) => m.day);
  const id = stableJobId('sat.daily.cfdi', job.id);
  const requests: NewSyncRequest[] = (['emitidos', 'recibidos'] as const).flatMap((direction) =>
    dayRuns(daysOf(direction)).map((run) => ({
      id: randomUUID(),
      jobId: id,
      direction,
      content: 'cfdi',
      ...run,
    })),
  );
  if (!requests.length) return;
  const directions = new Set(requests.map((r) => r.direction));
  const span = requests.flatMap((r) => [r.desde, r.hasta]).sort();
  await deps.db.transaction(async (tx) => {
    const inserted = await insertSyncJobOnce(tx, {
      id,
      profileId: job.profileId,
      userId: job.userId,
      desde: span[0]!,
      hasta: span.at(-1)!,
      tipo: directions.size === 2 ? 'ambos' : [...directions][0]!,
      contenido: 'cfdi',
      origen: 'diario',
    });
    if (!inserted) return;
    await insertSyncRequests(tx, requests);
    await queue.enqueue('sat.sync', { jobId: id }, { tx, id });
  });
  queue.wake('sat.sync');
}
