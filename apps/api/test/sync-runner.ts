import { type AppJobRunner, createAppJobs, type Deps, deriveDevKeyring } from '@folio/api';
import { createMailSender } from '@folio/email';
import type { TestApp } from './harness';

/**
 * A started job runner with the SAT sync's workers for a test app, its queue handed to the app's
 * services; waits of a second so the simulator's polls go fast. It logs through the app's logger,
 * as a server does (sat-sync-secrets.test.ts reads every line).
 */
export async function startSyncRunner(t: TestApp): Promise<AppJobRunner> {
  const log = t.deps.log;
  const runner = createAppJobs({
    handle: t.handle,
    sender: createMailSender({ db: t.handle.db, from: 'Folio <no-reply@folio.test>', log }),
    log,
    pollingIntervalSeconds: 0.5,
    webhooks: { keyring: deriveDevKeyring('sync test'), production: false },
    sync: {
      deps: () => t.deps as unknown as Deps,
      timing: { pollDelaySeconds: () => 1, retryDelaySeconds: 1, statusIntervalMs: 0 },
    },
  });
  await runner.start();
  t.deps.jobs = runner.queue;
  return runner;
}
