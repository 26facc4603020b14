/** Monthly quotas run on calendar months in Mexico City (docs/design.md#plans-and-quotas), whatever the server's zone. */
export const QUOTA_TIME_ZONE = 'America/Mexico_City';

const parts = new Intl.DateTimeFormat('en-CA', {
  timeZone: QUOTA_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  timeZoneName: 'longOffset',
});

function localMonth(at: Date): { year: number; month: number; offsetMinutes: number } {
  const p = Object.fromEntries(parts.formatToParts(at).map((x) => [x.type, x.value]));
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(p.timeZoneName ?? '');
  const offsetMinutes = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  return { year: Number(p.year), month: Number(p.month), offsetMinutes };
}

/** `YYYY-MM` of the month that `at` falls in, in Mexico City. */
export function quotaPeriod(at: Date = new Date()): string {
  const { year, month } = localMonth(at);
  return `${year}-${String(month).padStart(2, '0')}`;
}

/** The instant the next quota month starts (midnight on the 1st, Mexico City time). */
export function nextQuotaReset(at: Date = new Date()): Date {
  const { year, month } = localMonth(at);
  const firstLocal = Date.UTC(month === 12 ? year + 1 : year, month % 12, 1);
  // Midnight local = midnight UTC minus the zone's offset at that moment.
  const guess = new Date(firstLocal - localMonth(new Date(firstLocal)).offsetMinutes * 60_000);
  return new Date(firstLocal - localMonth(guess).offsetMinutes * 60_000);
}
