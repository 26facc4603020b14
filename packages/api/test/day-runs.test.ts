// Which days the daily CFDI follow-up asks SAT for (docs/sat-sync.md#sync-jobs): pure, no database.
import { describe, expect, it } from 'vitest';
import { dayRuns } from '../src/services/sat-sync/day-runs';

describe('dayRuns', () => {
  it('consecutive days make one run, days apart make runs apart (the days between are not asked)', () => {
    expect(dayRuns(['2026-10-09', '2026-10-05', '2026-10-06', '2026-10-06'])).toEqual([
      { desde: '2026-10-05', hasta: '2026-10-06' },
      { desde: '2026-10-09', hasta: '2026-10-09' },
    ]);
  });

  it('runs across a month end are consecutive (31 Oct → 1 Nov)', () => {
    expect(dayRuns(['2026-10-31', '2026-11-01'])).toEqual([{ desde: '2026-10-31', hasta: '2026-11-01' }]);
  });

  it('nothing missing: no run', () => {
    expect(dayRuns([])).toEqual([]);
  });

  it('past the limit, the runs with the fewest days between them are joined first', () => {
    // Gaps: 1 → 3 is 2 days, 3 → 10 is 7, 10 → 12 is 2: with 2 runs allowed, 1–3 joins first (the
    // earliest of the two 2-day gaps), then 10–12; the 7-day gap stays.
    const days = ['2026-10-01', '2026-10-03', '2026-10-10', '2026-10-12'];
    expect(dayRuns(days, 3)).toEqual([
      { desde: '2026-10-01', hasta: '2026-10-03' },
      { desde: '2026-10-10', hasta: '2026-10-10' },
      { desde: '2026-10-12', hasta: '2026-10-12' },
    ]);
    expect(dayRuns(days, 2)).toEqual([
      { desde: '2026-10-01', hasta: '2026-10-03' },
      { desde: '2026-10-10', hasta: '2026-10-12' },
    ]);
  });
});
