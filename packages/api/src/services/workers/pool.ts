import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { ErrorCode } from '../../error-codes';
import { type AppError, serviceUnavailable, unprocessable } from '../../errors';
import type { WorkerJob, WorkerLimits, WorkerTask, WorkOutcome } from './types';

/**
 * Heavy work (a PDF's layout, a tax report's computation) runs in worker threads, never on the
 * server's event loop: one CFDI's PDF held /health for seconds (issue 25), and a year's report held
 * every other request for tens of ms at a time (issue 30). Per pool and process: at most
 * `concurrency` jobs at once, `queue` more waiting, each worker's heap capped and each job given
 * `timeoutMs` to wait and as long again to run. A job over its memory is refused with 422; a full
 * queue or a job out of time with 503 and Retry-After. Workers stay for the next job and end after
 * a while idle.
 */

/** One core stays for the server itself. */
export const WORKERS_AT_ONCE = Math.max(1, Math.min(2, availableParallelism() - 1));

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
  constructor(limits: WorkerLimits, onGone: (slot: Slot) => void) {
    this.worker = newWorker({
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: YOUNG_MB },
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

interface Waiting {
  start: () => void;
  timer: NodeJS.Timeout;
}

class WorkerPool {
  private idle: Slot[] = [];
  private busy = 0;
  private waiting: Waiting[] = [];
  private nextId = 1;
  constructor(
    private readonly limits: WorkerLimits,
    private readonly wording: PoolWording,
  ) {}

  async run(job: WorkerJob): Promise<unknown> {
    if (this.busy < this.limits.concurrency) this.busy++;
    else await this.wait();
    try {
      return await this.runInSlot(job);
    } finally {
      // The place passes to the first waiting job, or is given back.
      const next = this.waiting.shift();
      if (next) next.start();
      else this.busy--;
    }
  }

  private busyError(message: string): AppError {
    return serviceUnavailable(message, BUSY_RETRY_S, this.wording.busy.reason);
  }

  /** Waits until a finished job hands its place over; 503 when the queue is full or the wait too long. */
  private wait(): Promise<void> {
    if (this.waiting.length >= this.limits.queue) {
      throw this.busyError(`${this.wording.busy.message}; retry in ${BUSY_RETRY_S} s`);
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
            this.busyError(
              `${this.wording.noWorker(this.limits.timeoutMs / 1000)}; retry in ${BUSY_RETRY_S} s`,
            ),
          );
        }, this.limits.timeoutMs),
      };
      this.waiting.push(place);
    });
  }

  private runInSlot(job: WorkerJob): Promise<unknown> {
    const slot = this.idle.pop() ?? new Slot(this.limits, (gone) => this.forget(gone));
    clearTimeout(slot.idleTimer);
    const id = this.nextId++;
    const { timeoutMs, memoryMb } = this.limits;
    const { timeout, refused } = this.wording;
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
 * Runs `job` in this process's pool for `wording` and `limits` (`defaults` overridden by what a
 * setting or test gives): its value, or the pool's refusal as an AppError.
 */
export function runInWorker(
  job: WorkerJob,
  wording: PoolWording,
  defaults: WorkerLimits,
  limits: Partial<WorkerLimits> = {},
): Promise<unknown> {
  const set = Object.entries(limits).filter(([, v]) => v !== undefined);
  const all: WorkerLimits = { ...defaults, ...Object.fromEntries(set) };
  const key = JSON.stringify([wording.busy.reason, all]);
  const pool = pools.get(key) ?? new WorkerPool(all, wording);
  pools.set(key, pool);
  return pool.run(job);
}
