import { describe, expect, it } from 'vitest';
import { nextQuotaReset, quotaPeriod } from './quota-period';

describe('quota months follow the calendar in Mexico City', () => {
  it('puts the last evening of a month in that month even when it is already the 1st in UTC', () => {
    expect(quotaPeriod(new Date('2026-03-01T05:59:59Z'))).toBe('2026-02');
    expect(quotaPeriod(new Date('2026-03-01T06:00:00Z'))).toBe('2026-03');
  });

  it('rolls December into January of the next year', () => {
    expect(quotaPeriod(new Date('2026-12-31T23:00:00-06:00'))).toBe('2026-12');
    expect(nextQuotaReset(new Date('2026-12-15T12:00:00Z')).toISOString()).toBe('2027-01-01T06:00:00.000Z');
  });

  it('resets at local midnight on the 1st of the next month', () => {
    expect(nextQuotaReset(new Date('2026-02-28T20:00:00-06:00')).toISOString()).toBe(
      '2026-03-01T06:00:00.000Z',
    );
    expect(nextQuotaReset(new Date('2026-03-01T06:00:00Z')).toISOString()).toBe('2026-04-01T06:00:00.000Z');
  });

  it('answers an instant outside the month asked last from its own month (the last month is remembered)', () => {
    // March 2026 in Mexico City (UTC−6 all year since 2022): 03-01T06:00Z up to 04-01T06:00Z.
    expect(quotaPeriod(new Date('2026-03-15T12:00:00Z'))).toBe('2026-03');
    expect(quotaPeriod(new Date('2026-03-01T05:59:59.999Z'))).toBe('2026-02');
    expect(quotaPeriod(new Date('2026-03-31T23:59:59Z'))).toBe('2026-03');
    expect(quotaPeriod(new Date('2026-04-01T06:00:00Z'))).toBe('2026-04');
    expect(nextQuotaReset(new Date('2026-03-01T05:59:59.999Z')).toISOString()).toBe(
      '2026-03-01T06:00:00.000Z',
    );
    expect(nextQuotaReset(new Date('2026-03-01T06:00:00Z')).toISOString()).toBe('2026-04-01T06:00:00.000Z');
  });
});
