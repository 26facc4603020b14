import { type AppJobRunner, createAppJobs, type Deps, deriveDevKeyring } from '@folio/api';
import type { FetchLike, SatSettings, SyncTiming } from '@folio/api/sat-sync';
import { createMailSender } from '@folio/email';
import { APP_URL, type TestApp } from './harness';

/**
 * SAT settings for a test app: the clients talk to the app's own simulator through `app.request`
 * (no network), or through `fetch` when a test watches or rewrites the calls.
 */
export function simulatorInApp(
  app: () => TestApp,
  fetch: FetchLike = (url, init) => Promise.resolve(app().app.request(url, init)),
): SatSettings {
  return {
    target: { kind: 'simulator', origin: APP_URL },
    fetch,
    refuseTestCertificates: false,
    authenticateOnUpload: false,
  };
}

/**
 * No waits between a sync's steps: the simulator answers "in progress" to a request's first
 * verification and the outcome to the next, so a job still takes every step it takes against SAT,
 * one after the other (the worker fetches again at once after a job: batches of one are full).
 * A queue retry still waits pg-boss's back-off (1 s at least).
 */
export const FAST_SYNC: Partial<SyncTiming> = {
  pollDelaySeconds: () => 0,
  retryDelaySeconds: 1,
  statusIntervalMs: 0,
};

/** A started job runner with the SAT sync's workers for a test app, its queue handed to the app's services. */
export async function startSyncRunner(
  t: TestApp,
  timing: Partial<SyncTiming> = FAST_SYNC,
): Promise<AppJobRunner> {
  const log = t.deps.log; // the app's logger, as a server's runner (sat-sync-secrets.test.ts reads every line)
  const runner = createAppJobs({
    handle: t.handle,
    sender: createMailSender({ db: t.handle.db, from: 'Folio <no-reply@folio.test>', log }),
    log,
    pollingIntervalSeconds: 0.5,
    webhooks: { keyring: deriveDevKeyring('sync test'), production: false },
    sync: { deps: () => t.deps as unknown as Deps, timing },
  });
  await runner.start();
  t.deps.jobs = runner.queue;
  return runner;
}
