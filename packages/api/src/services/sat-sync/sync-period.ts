import { badRequest } from '../../errors';

// A sync's period as SAT serves it (integrations.md §1): YYYY-MM-DD days of Mexico City, desde ≤
// hasta, at most one year, not after today, and no earlier than six years back (SAT keeps six).

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MEXICO_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' });

/** Today in Mexico City, YYYY-MM-DD. */
export const mexicoToday = (now: Date) => MEXICO_DAY.format(now);

const MEXICO_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'America/Mexico_City',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
/** After midnight, so a clock a little ahead of SAT's does not ask while SAT's day is still the old one. */
const NEXT_DAY_MARGIN_SECONDS = 300;

/**
 * Seconds from `now` to 00:05 of the next day in Mexico City, when SAT's daily limits (5011) start
 * again. Mexico City's days are 24 hours (no daylight saving time since October 2022).
 */
export function secondsToNextMexicoDay(now: Date): number {
  const [h, m, s] = MEXICO_TIME.format(now).split(':').map(Number) as [number, number, number];
  return 86_400 - (h * 3600 + m * 60 + s) + NEXT_DAY_MARGIN_SECONDS;
}

const isDay = (s: unknown): s is string =>
  typeof s === 'string' && DAY.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/** The same calendar day `years` later (29 Feb → 28 Feb in a common year). */
export function addYears(day: string, years: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y + years, m, 0)).getUTCDate();
  return `${y + years}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export function checkSyncPeriod(desde: unknown, hasta: unknown, now: Date): void {
  const fields: { path: string; message: string }[] = [];
  if (!isDay(desde)) fields.push({ path: 'desde', message: 'must be a date YYYY-MM-DD' });
  if (!isDay(hasta)) fields.push({ path: 'hasta', message: 'must be a date YYYY-MM-DD' });
  if (isDay(desde) && isDay(hasta)) {
    const today = mexicoToday(now);
    if (desde > hasta) fields.push({ path: 'desde', message: 'must not be after hasta' });
    else if (hasta >= addYears(desde, 1))
      fields.push({ path: 'hasta', message: 'the period is at most one year' });
    if (hasta > today) fields.push({ path: 'hasta', message: `must not be after today (${today})` });
    if (desde < addYears(today, -6))
      fields.push({ path: 'desde', message: 'SAT serves at most six years back' });
  }
  if (fields.length) {
    throw badRequest(
      `Invalid sync period: ${fields.map((f) => `${f.path} ${f.message}`).join('; ')}`,
      'sync_period_invalid',
      fields,
    );
  }
}
