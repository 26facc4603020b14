import { describe, expect, it } from 'vitest';
import {
  addBusinessHours,
  describeDeadline,
  folioOf,
  holidaysOf,
  instantOf,
  supportPromise,
  wallClock,
} from './rules';

// Mexico City has been UTC−6 all year since the Ley de los Husos Horarios en los Estados Unidos
// Mexicanos (DOF 2022-10-28) ended daylight saving time, so every wall-clock time below is written
// with its fixed offset. Business hours: Monday–Friday 09:00–18:00, 9 hours a day.
const mx = (local: string) => new Date(`${local}:00-06:00`);

describe('the Mexico City clock', () => {
  it('is UTC−6 in summer and winter alike (no DST since 2022)', () => {
    // 16:00 UTC − 6 h = 10:00 local, in July as in January.
    expect(new Date(wallClock(new Date('2026-07-15T16:00:00Z'))).toISOString()).toBe(
      '2026-07-15T10:00:00.000Z',
    );
    expect(new Date(wallClock(new Date('2026-01-15T16:00:00Z'))).toISOString()).toBe(
      '2026-01-15T10:00:00.000Z',
    );
    expect(instantOf(Date.UTC(2026, 6, 15, 10)).toISOString()).toBe('2026-07-15T16:00:00.000Z');
  });
});

describe('PRO: 4 business hours', () => {
  it('Friday 16:30 → Monday 11:30: 1.5 h left on Friday (16:30–18:00), the weekend skipped, 2.5 h from Monday 09:00', () => {
    // 2026-11-27 is a Friday, 2026-11-30 the Monday after; 4 − 1.5 = 2.5 h; 09:00 + 2.5 h = 11:30.
    expect(addBusinessHours(mx('2026-11-27T16:30'), 4)).toEqual(mx('2026-11-30T11:30'));
    expect(supportPromise('priority', mx('2026-11-27T16:30'))).toEqual({
      prioridad: 'alta',
      deadline: mx('2026-11-30T11:30'),
    });
  });

  it('Saturday noon counts from Monday 09:00: Monday 13:00', () => {
    // 2026-11-28 is a Saturday; the clock starts Monday 2026-11-30 at 09:00; 09:00 + 4 h = 13:00.
    expect(addBusinessHours(mx('2026-11-28T12:00'), 4)).toEqual(mx('2026-11-30T13:00'));
  });

  it('Friday evening (after 18:00) counts from Monday 09:00 too, as does Friday 18:00 sharp', () => {
    expect(addBusinessHours(mx('2026-11-27T20:15'), 4)).toEqual(mx('2026-11-30T13:00'));
    expect(addBusinessHours(mx('2026-11-27T18:00'), 4)).toEqual(mx('2026-11-30T13:00'));
  });

  it('08:00 before opening counts from 09:00 the same day: 13:00', () => {
    // 2026-11-24 is a Tuesday; 09:00 + 4 h = 13:00.
    expect(addBusinessHours(mx('2026-11-24T08:00'), 4)).toEqual(mx('2026-11-24T13:00'));
  });

  it('a deadline that lands on closing stays at 18:00 that day', () => {
    // Thursday 2026-11-26 14:00 + 4 h = 18:00, exactly closing.
    expect(addBusinessHours(mx('2026-11-26T14:00'), 4)).toEqual(mx('2026-11-26T18:00'));
  });
});

describe('BASIC: 2 business days (18 business hours)', () => {
  it('Thursday 10:00 → Monday 10:00', () => {
    // Thursday 2026-11-26 10:00–18:00 = 8 h; Friday 9 h → 17 h; Monday 09:00 + (18 − 17) h = 10:00.
    expect(supportPromise('email', mx('2026-11-26T10:00'))).toEqual({
      prioridad: 'normal',
      deadline: mx('2026-11-30T10:00'),
    });
  });

  it('Saturday noon → Tuesday 18:00: the two business days Monday and Tuesday, whole', () => {
    // Monday 2026-11-30 09:00–18:00 = 9 h, Tuesday 2026-12-01 9 h → 18 h at Tuesday's closing.
    expect(supportPromise('email', mx('2026-11-28T12:00')).deadline).toEqual(mx('2026-12-01T18:00'));
  });
});

describe('Ley Federal del Trabajo art. 74: days of mandatory rest are not business days', () => {
  it('lists 2026 by hand: the Mondays of fr. II, III and VI fall on 2 Feb, 16 Mar and 16 Nov', () => {
    // 2026-02-01 is a Sunday → first Monday 2 Feb. 2026-03-01 is a Sunday → Mondays 2, 9, 16 → 16 Mar.
    // 2026-11-01 is a Sunday → Mondays 2, 9, 16 → 16 Nov. No change of federal executive in 2026.
    expect([...holidaysOf(2026)].sort()).toEqual(
      ['1-1', '11-16', '12-25', '2-2', '3-16', '5-1', '9-16'].sort(),
    );
  });

  it('adds 1 October in the years the federal executive changes hands (fr. VII): 2030, not 2029', () => {
    expect(holidaysOf(2030).has('10-1')).toBe(true);
    expect(holidaysOf(2029).has('10-1')).toBe(false);
  });

  it('PRO Friday 17:00 before the 16 November Monday: 1 h Friday, Monday skipped, 3 h on Tuesday → 12:00', () => {
    // Friday 2026-11-13 17:00–18:00 = 1 h; Monday 2026-11-16 is art. 74 fr. VI; Tuesday 09:00 + 3 h = 12:00.
    expect(addBusinessHours(mx('2026-11-13T17:00'), 4)).toEqual(mx('2026-11-17T12:00'));
  });

  it('BASIC on Christmas Eve (Thursday 2026-12-24 15:00) skips the 25th and the weekend: Tuesday 15:00', () => {
    // Thursday 15:00–18:00 = 3 h; Friday the 25th is fr. VIII; Monday 28th 9 h → 12 h; Tuesday 29th + 6 h = 15:00.
    expect(supportPromise('email', mx('2026-12-24T15:00')).deadline).toEqual(mx('2026-12-29T15:00'));
  });
});

describe('what the user is told', () => {
  it('the folio carries the Mexico City year and a six-digit number', () => {
    // 2026-12-31 19:00 local is already 2027-01-01 01:00 UTC: the folio keeps the local year.
    expect(folioOf(mx('2026-12-31T19:00'), 123)).toBe('SOP-2026-000123');
  });

  it('the deadline is written in Spanish in Mexico City time', () => {
    expect(describeDeadline(mx('2026-11-30T11:30'))).toBe(
      'lunes 30 de noviembre de 2026 a las 11:30 (hora de la Ciudad de México)',
    );
  });
});
