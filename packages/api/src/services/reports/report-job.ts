import { type DbHandle, openDb } from '@folio/db';
import type { ReportInWorker, WorkOutcome } from '../workers/types';
import { computeReport } from './compute-report';
import { reportBody } from './report-body';

/** The worker's own pool per database, opened by its first report and kept while the worker lives. */
const handles = new Map<string, Promise<DbHandle>>();

/** A report job in a worker thread (off-thread.ts), read on this thread's connections. */
export async function computeInWorker({ databaseUrl, job, body }: ReportInWorker): Promise<WorkOutcome> {
  let handle = handles.get(databaseUrl);
  if (!handle) {
    // The server migrated the database before it started any worker. Two connections: a year's
    // report sends its statements two at a time (one at a time, 100,000 CFDI took 2.3 s, over the
    // 2 s of plan-features §3), not all at once on every core the reads need too.
    handle = openDb({ databaseUrl, poolMax: 2, migrate: false });
    handles.set(databaseUrl, handle);
    handle.catch(() => handles.delete(databaseUrl));
  }
  const report = await computeReport((await handle).db, job);
  return { ok: true, value: body ? reportBody(job.report, report) : report };
}
