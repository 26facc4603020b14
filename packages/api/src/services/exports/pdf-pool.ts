import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { serviceUnavailable, unprocessable } from '../../errors';
import type { ReportPdf } from '../reports/pdf';

/**
 * Every PDF is drawn in a worker thread, never on the server's event loop (issue 25: one CFDI's PDF
 * held /health for seconds, then took the whole process past its heap limit). Per process: at most
 * `concurrency` documents drawn at once, `queue` more waiting, each worker's heap capped and each
 * document given `timeoutMs` to wait and as long again to be drawn. A document over its memory is
 * refused with 422 (it cannot be printed); a full queue or a document out of time with 503 and
 * Retry-After. Workers stay for the next document and end after a while idle.
 */

export interface PdfLimits {
  /** Documents drawn at once (one worker thread each). */
  concurrency: number;
  /** Documents that may wait for a worker; beyond them, 503. */
  queue: number;
  /** Longest wait for a worker, and longest drawing, of one document. */
  timeoutMs: number;
  /** Each worker's V8 heap (old generation), in MB. */
  memoryMb: number;
}

export const PDF_LIMITS: PdfLimits = {
  // One core stays for the server itself; each worker may take `memoryMb` and more.
  concurrency: Math.max(1, Math.min(2, availableParallelism() - 1)),
  queue: 16,
  timeoutMs: 30_000,
  memoryMb: 256,
};

/** What a worker is asked to draw. */
export type PdfJob = { kind: 'cfdi'; xml: string } | { kind: 'report'; report: ReportPdf };
export type PdfTask = PdfJob & { id: number };

/** What a CFDI's file is named after, read by the worker from the XML it parsed. */
export interface PrintedIdentity {
  rfc: string;
  serie?: string;
  folio?: string;
  uuid: string;
}

/** A worker's answer to one task: the PDF, or why it could not draw it. */
export type PdfOutcome =
  | { ok: true; pdf: Uint8Array; cfdi?: PrintedIdentity }
  | { ok: false; unprintable?: string; error?: string };
export type PdfAnswer = PdfOutcome & { id: number };

export interface PdfResult {
  pdf: Uint8Array;
  cfdi?: PrintedIdentity;
}

/** Seconds a client is told to wait when every worker is busy. */
const BUSY_RETRY_S = 5;
/** An idle worker is ended after this long (its heap goes back to the system). */
const IDLE_MS = 30_000;
/** A small young generation: documents are short-lived garbage, and the RSS of idle semispaces counts. */
const YOUNG_MB = 8;

// Run from TypeScript source (tests, `tsx`), the worker is the .ts file beside this one, loaded
// through tsx's loader registered in the new thread; in the server's bundle (tsup) it is the
// `pdf-worker.js` entry beside main.js.
const fromSource = import.meta.url.endsWith('.ts');
function newWorker(options: WorkerOptions): Worker {
  if (!fromSource) return new Worker(new URL('./pdf-worker.js', import.meta.url), options);
  // tsx's ESM API (`tsx/esm/api`, beside its main module dist/loader.mjs) registers its loader in
  // the thread that calls it; the package's `require` condition would give its CommonJS build.
  const tsxMain = createRequire(import.meta.url).resolve('tsx');
  const tsx = pathToFileURL(join(dirname(tsxMain), 'esm/api/index.mjs')).href;
  const entry = new URL('./pdf-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { ...options, eval: true });
}

interface Running {
  id: number;
  settle: (answer: PdfAnswer | Error) => void;
}

/** One worker thread and the document it is drawing, if any. */
class Slot {
  readonly worker: Worker;
  running: Running | undefined;
  idleTimer: NodeJS.Timeout | undefined;
  constructor(limits: PdfLimits, onGone: (slot: Slot) => void) {
    this.worker = newWorker({
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: YOUNG_MB },
    });
    this.worker.unref(); // an idle worker never keeps the process alive
    this.worker.on('message', (answer: PdfAnswer) => {
      if (answer.id === this.running?.id) this.running.settle(answer);
    });
    this.worker.on('error', (err) => this.running?.settle(err));
    this.worker.on('exit', (code) => {
      this.running?.settle(new Error(`PDF worker exited (${code})`));
      onGone(this);
    });
  }
}

interface Waiting {
  start: () => void;
  timer: NodeJS.Timeout;
}

class PdfPool {
  private idle: Slot[] = [];
  private busy = 0;
  private waiting: Waiting[] = [];
  private nextId = 1;
  constructor(private readonly limits: PdfLimits) {}

  async run(job: PdfJob): Promise<PdfResult> {
    if (this.busy < this.limits.concurrency) this.busy++;
    else await this.wait();
    try {
      return await this.draw(job);
    } finally {
      // The place passes to the first waiting document, or is given back.
      const next = this.waiting.shift();
      if (next) next.start();
      else this.busy--;
    }
  }

  /** Waits until a finished document hands its place over; 503 when the queue is full or the wait too long. */
  private wait(): Promise<void> {
    if (this.waiting.length >= this.limits.queue) {
      throw serviceUnavailable(
        `Too many PDFs are being drawn right now; retry in ${BUSY_RETRY_S} s`,
        BUSY_RETRY_S,
        'pdf_busy',
      );
    }
    return new Promise((resolve, reject) => {
      const place: Waiting = {
        start: () => {
          clearTimeout(place.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(place), 1);
          reject(
            serviceUnavailable(
              `No PDF worker came free within ${this.limits.timeoutMs / 1000} s; retry in ${BUSY_RETRY_S} s`,
              BUSY_RETRY_S,
              'pdf_busy',
            ),
          );
        }, this.limits.timeoutMs),
      };
      this.waiting.push(place);
    });
  }

  private draw(job: PdfJob): Promise<PdfResult> {
    const slot = this.idle.pop() ?? new Slot(this.limits, (gone) => this.forget(gone));
    clearTimeout(slot.idleTimer);
    const id = this.nextId++;
    const { timeoutMs, memoryMb } = this.limits;
    return new Promise<PdfResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        slot.running = undefined;
        void slot.worker.terminate(); // the layout cannot be interrupted otherwise
        reject(
          serviceUnavailable(
            `The PDF took longer than ${timeoutMs / 1000} s to draw; retry later`,
            Math.ceil(timeoutMs / 1000),
            'pdf_timeout',
          ),
        );
      }, timeoutMs);
      slot.running = {
        id,
        settle: (answer) => {
          clearTimeout(timer);
          slot.running = undefined;
          if (answer instanceof Error) {
            reject(
              (answer as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
                ? unprocessable(
                    `This document cannot be printed: drawing it needs more than ${memoryMb} MB`,
                    'pdf_unprintable',
                  )
                : answer,
            );
            return;
          }
          this.release(slot);
          if (answer.ok) resolve({ pdf: answer.pdf, cfdi: answer.cfdi });
          else if (answer.unprintable)
            reject(
              unprocessable(`This document cannot be printed: ${answer.unprintable}`, 'pdf_unprintable'),
            );
          else reject(new Error(`PDF worker failed: ${answer.error}`));
        },
      };
      slot.worker.postMessage({ ...job, id } satisfies PdfTask);
    });
  }

  /** A worker done with its document waits for the next one, and ends when none comes. */
  private release(slot: Slot) {
    slot.idleTimer = setTimeout(() => {
      this.forget(slot); // taken from the idle list before it goes, so no document is sent to it
      void slot.worker.terminate();
    }, IDLE_MS).unref();
    this.idle.push(slot);
  }

  private forget(slot: Slot) {
    clearTimeout(slot.idleTimer);
    this.idle = this.idle.filter((s) => s !== slot);
  }
}

const pools = new Map<string, PdfPool>();

/** Draws `job` in this process's pool for `limits` (PDF_LIMITS unless a setting or test changes them). */
export function renderPdf(job: PdfJob, limits: Partial<PdfLimits> = {}): Promise<PdfResult> {
  const set = Object.entries(limits).filter(([, v]) => v !== undefined);
  const all: PdfLimits = { ...PDF_LIMITS, ...Object.fromEntries(set) };
  const key = JSON.stringify(all);
  const pool = pools.get(key) ?? new PdfPool(all);
  pools.set(key, pool);
  return pool.run(job);
}
