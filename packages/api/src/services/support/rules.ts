import { CHECKOUT_PLANS, PLAN_LIMITS, type PlanLimits } from '@folio/billing';

/** The support team's clock: Mexico City, UTC−6 all year since the 2022 Ley de los Husos Horarios. */
export const SUPPORT_TIME_ZONE = 'America/Mexico_City';
/** Business hours, Monday to Friday (docs/support.md). */
export const OPENS_AT_HOUR = 9;
export const CLOSES_AT_HOUR = 18;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BUSINESS_DAY_HOURS = CLOSES_AT_HOUR - OPENS_AT_HOUR;

export type Prioridad = 'normal' | 'alta';
type SupportLevel = Exclude<PlanLimits['support'], 'none'>;

/** What each paid level promises (plan-features `support`; integrations §3). */
export const SUPPORT_PROMISE: Record<SupportLevel, { prioridad: Prioridad; businessHours: number }> = {
  // Two business days, as business hours: Thursday 10:00 → Monday 10:00, Saturday → Tuesday's close.
  email: { prioridad: 'normal', businessHours: 2 * BUSINESS_DAY_HOURS },
  priority: { prioridad: 'alta', businessHours: 4 },
};

/** "Support requests require the BASIC or PRO plan": the plans sold with support, read from the plan table. */
export const SUPPORT_REQUIRED = `Support requests require the ${CHECKOUT_PLANS.filter(
  (p) => PLAN_LIMITS[p].support !== 'none',
).join(' or ')} plan`;

// Wall-clock arithmetic: a Mexico City date and time is held as the UTC instant with the same
// digits ("naive" ms), so getUTCDay/getUTCHours read the local calendar and adding hours is plain
// arithmetic. Only the conversions at both ends know the zone (through Intl, whose tz database
// knows the offsets and that DST ended in 2022).

const PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: SUPPORT_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** The Mexico City wall clock at `instant`, as naive ms. */
export function wallClock(instant: Date): number {
  const p = Object.fromEntries(PARTS.formatToParts(instant).map((x) => [x.type, Number(x.value)]));
  const ms = instant.getTime() % 1000;
  return Date.UTC(p.year!, p.month! - 1, p.day, p.hour, p.minute, p.second, ms < 0 ? ms + 1000 : ms);
}

/** The instant whose Mexico City wall clock is `naive` (the offset read at that moment, twice to settle). */
export function instantOf(naive: number): Date {
  const offsetAt = (t: number) => wallClock(new Date(t)) - t;
  const guess = naive - offsetAt(naive);
  return new Date(naive - offsetAt(guess));
}

const nthMonday = (year: number, month: number, n: number) => {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return 1 + ((8 - first) % 7) + 7 * (n - 1);
};
const mmdd = (month: number, day: number) => `${month}-${day}`;

/**
 * Days of mandatory rest, Ley Federal del Trabajo art. 74: I 1 January; II first Monday of February;
 * III third Monday of March; IV 1 May; V 16 September; VI third Monday of November; VII 1 October
 * every six years, when the federal executive changes hands (2024, 2030…); VIII 25 December. (IX,
 * federal election day, is a Sunday: LGIPE art. 22.) The support team does not answer on them.
 */
export function holidaysOf(year: number): Set<string> {
  const days = [
    mmdd(1, 1),
    mmdd(2, nthMonday(year, 2, 1)),
    mmdd(3, nthMonday(year, 3, 3)),
    mmdd(5, 1),
    mmdd(9, 16),
    mmdd(11, nthMonday(year, 11, 3)),
    mmdd(12, 25),
  ];
  if (year >= 2024 && (year - 2024) % 6 === 0) days.push(mmdd(10, 1));
  return new Set(days);
}

/** Monday to Friday and not an art. 74 holiday (`naive` is any moment of the day). */
export function isBusinessDay(naive: number): boolean {
  const d = new Date(naive);
  const weekday = d.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !holidaysOf(d.getUTCFullYear()).has(mmdd(d.getUTCMonth() + 1, d.getUTCDate()));
}

const midnight = (naive: number) => naive - (((naive % DAY) + DAY) % DAY);

/** The next business day's opening strictly after the day of `naive`. */
function nextOpening(naive: number): number {
  let day = midnight(naive) + DAY;
  while (!isBusinessDay(day)) day += DAY;
  return day + OPENS_AT_HOUR * HOUR;
}

/**
 * `hours` business hours after `at`: time counts only Monday–Friday 09:00–18:00 Mexico City, not on
 * holidays; a request outside them counts from the next opening. A deadline that falls exactly on a
 * closing stays there (Thursday 14:00 + 4 h is Thursday 18:00, not Friday 09:00).
 */
export function addBusinessHours(at: Date, hours: number): Date {
  let now = wallClock(at);
  let left = hours * HOUR;
  const opens = midnight(now) + OPENS_AT_HOUR * HOUR;
  if (!isBusinessDay(now) || now >= midnight(now) + CLOSES_AT_HOUR * HOUR) now = nextOpening(now);
  else if (now < opens) now = opens;
  for (;;) {
    const closes = midnight(now) + CLOSES_AT_HOUR * HOUR;
    if (left <= closes - now) return instantOf(now + left);
    left -= closes - now;
    now = nextOpening(now);
  }
}

/** The priority and the promised answer time of a request made at `at` on a paid support level. */
export function supportPromise(level: SupportLevel, at: Date): { prioridad: Prioridad; deadline: Date } {
  const { prioridad, businessHours } = SUPPORT_PROMISE[level];
  return { prioridad, deadline: addBusinessHours(at, businessHours) };
}

/** `SOP-2026-000123`: the year of the request in Mexico City and the folio sequence's number. */
export function folioOf(at: Date, n: number): string {
  return `SOP-${new Date(wallClock(at)).getUTCFullYear()}-${String(n).padStart(6, '0')}`;
}

const LONG = new Intl.DateTimeFormat('es-MX', {
  timeZone: SUPPORT_TIME_ZONE,
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** "lunes 30 de noviembre de 2026 a las 11:30 (hora de la Ciudad de México)", for the user's mail. */
export function describeDeadline(at: Date): string {
  const p = Object.fromEntries(LONG.formatToParts(at).map((x) => [x.type, x.value]));
  const clock = new Date(wallClock(at));
  const hhmm = `${String(clock.getUTCHours()).padStart(2, '0')}:${String(clock.getUTCMinutes()).padStart(2, '0')}`;
  return `${p.weekday} ${p.day} de ${p.month} de ${p.year} a las ${hhmm} (hora de la Ciudad de México)`;
}
