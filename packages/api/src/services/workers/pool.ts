import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { ErrorCode } from '../../error-codes';
import { serviceUnavailable, unprocessable } from '../../errors';
import type { WorkerJob, WorkerLimits, WorkerShape, WorkerTask, WorkOutcome } from './types';

/**
 * Heavy work (a PDF's layout, a tax report's computation) runs in worker threads, never on the
 * server's event loop: one CFDI's PDF held /health for seconds (issue 25), and a year's report held
 * every other request for tens of ms at a time (issue 30). A pool is a worker shape: at most
 * `concurrency` jobs at once, each worker's heap capped at `memoryMb`. Kinds of work with the same
 * shape share one pool, so PDFs and reports share their threads (each thread is an isolate: about
 * 20 MB of RSS under load, docs/benchmarks.md#load). Each kind keeps its own bounds: `queue` jobs
 * of it waiting, `timeoutMs` for one to wait and as long again to run. A job over the heap is
 * refused with 422; a full queue or a job out of time with 503 and Retry-After. Workers stay for the
 * next job and end after a while idle.
 */

/** One core stays for the server itself. */
export const WORKERS_AT_ONCE = Math.max(1, Math.min(2, availableParallelism() - 1));

/**
 * Each worker's heap (V8 old generation), the same for every kind so that they share threads: a
 * year's report over 100,000 CFDI of one RFC is computed in 96 MB (`bench:reports`), a printable
 * CFDI in far less; past it a job is refused with 422 before the process outgrows a small box.
 */
export const WORKER_MEMORY_MB = 256;

/** What a pool's refusals say: each pool names its work (`pdf_busy`, `report_busy`…). */
export interface PoolWording {
  busy: { message: string; reason: ErrorCode };
  /** No worker came free within `s` seconds (reason: busy's). */
  noWorker: (s: number) => string;
  timeout: { message: (s: number) => string; reason: ErrorCode };
  /** A job the worker refused (`why`), or one over `memoryMb` of heap: 422. */
  refused: { message: (why: string) => string; overMemory: (mb: number) => string; reason: ErrorCode };
}

/** Seconds a client is told to wait when every worker is busy. */
const BUSY_RETRY_S = 5;
/** An idle worker is ended after this long (its heap goes back to the system). */
const IDLE_MS = 30_000;
/** A small young generation: jobs make short-lived garbage, and the RSS of idle semispaces counts. */
const YOUNG_MB = 8;

// Run from TypeScript source (tests, `tsx`), the worker is the .ts file beside this one, loaded
// through tsx's loader registered in the new thread; in the server's bundle (tsup) it is the
// `worker.js` entry beside main.js.
const fromSource = import.meta.url.endsWith('.ts');
function newWorker(options: WorkerOptions): Worker {
  if (!fromSource) return new Worker(new URL('./worker.js', import.meta.url), options);
  // tsx's ESM API (`tsx/esm/api`, beside its main module dist/loader.mjs) registers its loader in
  // the thread that calls it; the package's `require` condition would give its CommonJS build.
  const tsxMain = createRequire(import.meta.url).resolve('tsx');
  const tsx = pathToFileURL(join(dirname(tsxMain), 'esm/api/index.mjs')).href;
  const entry = new URL('./worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((t) => { t.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { ...options, eval: true });
}

type Answer = (WorkOutcome & { id: number }) | Error;

/** One worker thread and the job it is running, if any. */
class Slot {
  readonly worker: Worker;
  running: { id: number; settle: (answer: Answer) => void } | undefined;
  idleTimer: NodeJS.Timeout | undefined;
  constructor(shape: WorkerShape, onGone: (slot: Slot) => void) {
    this.worker = newWorker({
      resourceLimits: { maxOldGenerationSizeMb: shape.memoryMb, maxYoungGenerationSizeMb: YOUNG_MB },
    });
    this.worker.unref(); // an idle worker never keeps the process alive
    this.worker.on('message', (answer: WorkOutcome & { id: number }) => {
      if (answer.id === this.running?.id) this.running.settle(answer);
    });
    this.worker.on('error', (err) => this.running?.settle(err));
    this.worker.on('exit', (code) => {
      this.running?.settle(new Error(`worker thread exited (${code})`));
      onGone(this);
    });
  }
}

/** A kind of work in a pool: its wording and its own bounds of waiting and running. */
interface Kind {
  wording: PoolWording;
  queue: number;
  timeoutMs: number;
}

interface Waiting {
  /** Whose queue the job counts in. */
  wording: PoolWording;
  start: () => void;
  timer: NodeJS.Timeout;
}

class WorkerPool {
  private idle: Slot[] = [];
  private busy = 0;
  private waiting: Waiting[] = [];
  private nextId = 1;
  constructor(private readonly shape: WorkerShape) {}

  async run(job: WorkerJob, kind: Kind): Promise<unknown> {
    if (this.busy < this.shape.concurrency) this.busy++;
    else await this.wait(kind);
    try {
      return await this.runInSlot(job, kind);
    } finally {
      // The place passes to the first waiting job, of whatever kind, or is given back.
      const next = this.waiting.shift();
      if (next) next.start();
      else this.busy--;
    }
  }

  /** Waits until a finished job hands its place over; 503 when the kind's queue is full or the wait too long. */
  private wait(kind: Kind): Promise<void> {
    const { wording, queue, timeoutMs } = kind;
    const busy = (message: string) => serviceUnavailable(message, BUSY_RETRY_S, wording.busy.reason);
    if (this.waiting.filter((w) => w.wording === wording).length >= queue) {
      throw busy(`${wording.busy.message}; retry in ${BUSY_RETRY_S} s`);
    }
    return new Promise((resolve, reject) => {
      const place: Waiting = {
        wording,
        start: () => {
          clearTimeout(place.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(place), 1);
          reject(busy(`${wording.noWorker(timeoutMs / 1000)}; retry in ${BUSY_RETRY_S} s`));
        }, timeoutMs),
      };
      this.waiting.push(place);
    });
  }

  private runInSlot(job: WorkerJob, kind: Kind): Promise<unknown> {
    const slot = this.idle.pop() ?? new Slot(this.shape, (gone) => this.forget(gone));
    clearTimeout(slot.idleTimer);
    const id = this.nextId++;
    const { memoryMb } = this.shape;
    const { timeoutMs } = kind;
    const { timeout, refused } = kind.wording;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        slot.running = undefined;
        void slot.worker.terminate(); // the work cannot be interrupted otherwise
        reject(
          serviceUnavailable(timeout.message(timeoutMs / 1000), Math.ceil(timeoutMs / 1000), timeout.reason),
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
                ? unprocessable(refused.message(refused.overMemory(memoryMb)), refused.reason)
                : answer,
            );
            return;
          }
          this.release(slot);
          if (answer.ok) resolve(answer.value);
          else if (answer.refused) reject(unprocessable(refused.message(answer.refused), refused.reason));
          else reject(new Error(`worker thread failed: ${answer.error}`));
        },
      };
      slot.worker.postMessage({ job, id } satisfies WorkerTask);
    });
  }

  /** A worker done with its job waits for the next one, and ends when none comes. */
  private release(slot: Slot) {
    slot.idleTimer = setTimeout(() => {
      this.forget(slot); // taken from the idle list before it goes, so no job is sent to it
      void slot.worker.terminate();
    }, IDLE_MS).unref();
    this.idle.push(slot);
  }

  private forget(slot: Slot) {
    clearTimeout(slot.idleTimer);
    this.idle = this.idle.filter((s) => s !== slot);
  }
}

const pools = new Map<string, WorkerPool>();

/**
 * Runs `job` in this process's pool of its worker shape, with its kind's `wording` and `limits`
 * (`defaults` overridden by what a setting or test gives): its value, or the refusal as an AppError.
 */
export function runInWorker(
  job: WorkerJob,
  wording: PoolWording,
  defaults: WorkerLimits,
  limits: Partial<WorkerLimits> = {},
): Promise<unknown> {
  const set = Object.entries(limits).filter(([, v]) => v !== undefined);
  const { concurrency, memoryMb, queue, timeoutMs }: WorkerLimits = {
    ...defaults,
    ...Object.fromEntries(set),
  };
  const key = `${concurrency}/${memoryMb}`;
  const pool = pools.get(key) ?? new WorkerPool({ concurrency, memoryMb });
  pools.set(key, pool);
  return pool.run(job, { wording, queue, timeoutMs });
}
