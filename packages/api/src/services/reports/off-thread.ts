import type { Context } from '../../context';
import { runInWorker, WORKER_MEMORY_MB, WORKERS_AT_ONCE } from '../workers/pool';
import type { ReportInWorker, WorkerLimits } from '../workers/types';
import { computeReport, type ReportJob, type ReportOf } from './compute-report';
import { reportBody } from './report-body';

/**
 * Where a report is computed. On PostgreSQL, in a worker thread with connections of its own
 * (workers/pool.ts): a year's report is 50-150 ms of the event loop and its garbage, and at a few a
 * second every interactive request waited behind them (docs/benchmarks.md#load). On PGlite the
 * database lives in this thread, so the report is computed here, in steps (yielding.ts).
 */

export const REPORT_LIMITS: WorkerLimits = {
  concurrency: WORKERS_AT_ONCE,
  queue: 32,
  timeoutMs: 60_000,
  // The PDFs' (pool.ts): reports and PDFs share their worker threads. REPORT_WORKER_MEMORY_MB
  // raises it for an RFC of more than ~250,000 CFDI a year; the reports then get threads of their own.
  memoryMb: WORKER_MEMORY_MB,
};

const REPORT_WORDING = {
  busy: { message: 'Too many reports are being computed right now', reason: 'report_busy' },
  noWorker: (s: number) => `No report worker came free within ${s} s`,
  timeout: {
    message: (s: number) => `The report took longer than ${s} s to compute; retry later`,
    reason: 'report_timeout',
  },
  refused: {
    message: (why: string) => `This report cannot be computed: ${why}`,
    overMemory: (mb: number) => `it needs more than ${mb} MB`,
    reason: 'report_too_large',
  },
} as const;

export function reportFor<J extends ReportJob>(ctx: Context, job: J): Promise<ReportOf<J['report']>> {
  if (!ctx.databaseUrl) return computeReport(ctx.db, job);
  return inWorker(ctx, { kind: 'tax-report', databaseUrl: ctx.databaseUrl, job }) as Promise<
    ReportOf<J['report']>
  >;
}

/** The report's JSON answer (report-body.ts), made where the report is computed. */
export async function reportBodyFor(ctx: Context, job: ReportJob): Promise<string> {
  if (!ctx.databaseUrl) return reportBody(job.report, await computeReport(ctx.db, job));
  return inWorker(ctx, {
    kind: 'tax-report',
    databaseUrl: ctx.databaseUrl,
    job,
    body: true,
  }) as Promise<string>;
}

const inWorker = (ctx: Context, task: ReportInWorker) =>
  runInWorker(task, REPORT_WORDING, REPORT_LIMITS, ctx.config.reportWorkers);
