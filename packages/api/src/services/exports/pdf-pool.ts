import { runInWorker, WORKER_MEMORY_MB, WORKERS_AT_ONCE } from '../workers/pool';
import type { PdfJob, PdfResult, WorkerLimits } from '../workers/types';

/**
 * Every PDF is drawn in a worker thread (workers/pool.ts), never on the server's event loop (issue
 * 25: one CFDI's PDF held /health for seconds, then took the whole process past its heap limit). A
 * document over its memory is refused with 422 (it cannot be printed); a full queue or a document
 * out of time with 503 and Retry-After.
 */

export type PdfLimits = WorkerLimits;

export const PDF_LIMITS: PdfLimits = {
  concurrency: WORKERS_AT_ONCE,
  queue: 16,
  timeoutMs: 30_000,
  memoryMb: WORKER_MEMORY_MB,
};

const PDF_WORDING = {
  busy: { message: 'Too many PDFs are being drawn right now', reason: 'pdf_busy' },
  noWorker: (s: number) => `No PDF worker came free within ${s} s`,
  timeout: {
    message: (s: number) => `The PDF took longer than ${s} s to draw; retry later`,
    reason: 'pdf_timeout',
  },
  refused: {
    message: (why: string) => `This document cannot be printed: ${why}`,
    overMemory: (mb: number) => `drawing it needs more than ${mb} MB`,
    reason: 'pdf_unprintable',
  },
} as const;

/** Draws `job` in this process's PDF workers for `limits` (PDF_LIMITS unless a setting or test changes them). */
export function renderPdf(job: PdfJob, limits: Partial<PdfLimits> = {}): Promise<PdfResult> {
  return runInWorker(job, PDF_WORDING, PDF_LIMITS, limits) as Promise<PdfResult>;
}
