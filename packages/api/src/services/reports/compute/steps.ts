// A long computation written as a generator that yields between chunks of its work, so the same
// code runs straight through (`finish`, for the pure module's callers and tests) or handing the
// event loop back between chunks (services/reports/yielding.ts), which a server needs: a year of
// 10,000 CFDI is 100+ ms of work that would otherwise hold every other request
// (docs/benchmarks.md, "Heavy requests").

/** A computation of a `T` that pauses (yields) between chunks of its work. */
export type Steps<T> = Generator<void, T, void>;

/** Items handled between two pauses: a few ms of work at most. */
export const CHUNK = 250;

/** Runs the steps straight through. */
export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
