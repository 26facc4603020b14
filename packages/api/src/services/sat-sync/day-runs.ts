import { addDays } from '@folio/sat/plain';

// The daily CFDI follow-up asks SAT only for the days whose metadata lists UUIDs Folio lacks
// (integrations.md §1). Consecutive days make one request (SAT answers a period as cheaply as a
// day); days apart make requests apart, so the days between are not downloaded again. Past
// MAX_DAY_RUNS, the runs closest together are joined: a month of scattered days stays a bounded
// number of requests (docs/sat-sync.md#sync-jobs).

export interface DayRun {
  desde: string;
  hasta: string;
}

/** Requests per direction of one follow-up at most (the job refuses more than 64 in all, splits included). */
export const MAX_DAY_RUNS = 10;

const gapDays = (a: DayRun, b: DayRun) => (Date.parse(b.desde) - Date.parse(a.hasta)) / 86_400_000;

/** Sorted distinct days (YYYY-MM-DD) as runs of consecutive days, at most `max` of them. */
export function dayRuns(days: readonly string[], max = MAX_DAY_RUNS): DayRun[] {
  const runs: DayRun[] = [];
  for (const day of [...new Set(days)].sort()) {
    const last = runs.at(-1);
    if (last && addDays(last.hasta, 1) === day) last.hasta = day;
    else runs.push({ desde: day, hasta: day });
  }
  while (runs.length > max) {
    // Join the two runs with the fewest days between them (the earliest on a tie).
    let at = 0;
    for (let i = 1; i < runs.length - 1; i++) {
      if (gapDays(runs[i]!, runs[i + 1]!) < gapDays(runs[at]!, runs[at + 1]!)) at = i;
    }
    runs.splice(at, 2, { desde: runs[at]!.desde, hasta: runs[at + 1]!.hasta });
  }
  return runs;
}
