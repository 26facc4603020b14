import type { ReportJob } from '../reports/compute-report';
import type { ReportPdf } from '../reports/pdf';

// What passes between the server and its worker threads (pool.ts, worker.ts): plain data only.

/** A pool's threads: kinds of work with the same shape share them (pool.ts). */
export interface WorkerShape {
  /** Jobs run at once (one worker thread each). */
  concurrency: number;
  /** Each worker's V8 heap (old generation), in MB. */
  memoryMb: number;
}

/** A kind of work's limits: the shape of the pool it runs in, and its own bounds in it. */
export interface WorkerLimits extends WorkerShape {
  /** Jobs of this kind that may wait for a worker; beyond them, 503. */
  queue: number;
  /** Longest wait for a worker, and longest run, of one job. */
  timeoutMs: number;
}

/** A PDF to draw (exports/pdf-job.ts). */
export type PdfJob = { kind: 'cfdi-pdf'; xml: string } | { kind: 'report-pdf'; report: ReportPdf };

/** What a CFDI's file is named after, read by the worker from the XML it parsed. */
export interface PrintedIdentity {
  rfc: string;
  serie?: string;
  folio?: string;
  uuid: string;
}

export interface PdfResult {
  pdf: Uint8Array;
  cfdi?: PrintedIdentity;
}

/**
 * A report to compute (reports/report-job.ts), and the database to read it from; `body`: answer
 * the report's JSON text (report-body.ts) rather than the report.
 */
export type ReportInWorker = { kind: 'tax-report'; databaseUrl: string; job: ReportJob; body?: true };

export type WorkerJob = PdfJob | ReportInWorker;
export type WorkerTask = { id: number; job: WorkerJob };
/** A job's value, or why it was refused (422) or failed. */
export type WorkOutcome<T = unknown> =
  | { ok: true; value: T }
  | { ok: false; refused?: string; error?: string };
