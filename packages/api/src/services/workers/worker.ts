import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { WorkerJob, WorkerTask, WorkOutcome } from './types';

/**
 * The body of a worker thread (pool.ts starts and limits them): one job at a time, run here so that
 * the server's event loop never waits for it, and a job that needs more memory or time than allowed
 * ends this thread, not the server. Each kind's code is loaded by its first job.
 */

async function run(job: WorkerJob): Promise<WorkOutcome> {
  switch (job.kind) {
    case 'cfdi-pdf':
    case 'report-pdf':
      return (await import('../exports/pdf-job')).drawPdf(job);
    case 'tax-report':
      return (await import('../reports/report-job')).computeInWorker(job);
  }
}

const port = parentPort;
if (!port) throw new Error('worker.ts runs as a worker thread (pool.ts)');
// Below the server's own thread (Linux keeps a nice value per thread): when the cores are short, the
// interactive requests on the event loop go first and this job takes what is left.
try {
  setPriority(10);
} catch {
  // Not allowed here (some containers): the job runs at the server's priority.
}
port.on('message', ({ id, job }: WorkerTask) => {
  run(job).then(
    (answer) => port.postMessage({ id, ...answer }),
    (err: unknown) => port.postMessage({ id, ok: false, error: String((err as Error)?.stack ?? err) }),
  );
});
