import { setImmediate } from 'node:timers/promises';
import type { Steps } from './compute/steps';

/**
 * Runs a report's steps (compute/steps.ts), giving the event loop back between chunks: other
 * requests' I/O and timers run between them instead of waiting for the whole report.
 */
export async function finishYielding<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await setImmediate();
  }
}
