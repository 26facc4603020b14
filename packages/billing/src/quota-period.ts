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

/** Midnight on the 1st of `month` (1–12, 13 = January of the next year) in Mexico City, as an instant. */
function monthStart(year: number, month: number): number {
  const firstLocal = Date.UTC(month === 13 ? year + 1 : year, (month - 1) % 12, 1);
  // Midnight local = midnight UTC minus the zone's offset at that moment.
  const guess = firstLocal - localMonth(new Date(firstLocal)).offsetMinutes * 60_000;
  return firstLocal - localMonth(new Date(guess)).offsetMinutes * 60_000;
}

type QuotaMonth = { period: string; from: number; to: number };
let last: QuotaMonth | undefined;
/**
 * The quota month `at` falls in, with its bounds. Every counted request asks, and formatToParts
 * costs tens of microseconds a call (three a request, a visible share of a SAT search's CPU:
 * docs/benchmarks.md): the last month found answers every instant inside it.
 */
function quotaMonth(at: Date): QuotaMonth {
  const t = at.getTime();
  if (last && t >= last.from && t < last.to) return last;
  const { year, month } = localMonth(at);
  last = {
    period: `${year}-${String(month).padStart(2, '0')}`,
    from: monthStart(year, month),
    to: monthStart(year, month + 1),
  };
  return last;
}

/** `YYYY-MM` of the month that `at` falls in, in Mexico City. */
export function quotaPeriod(at: Date = new Date()): string {
  return quotaMonth(at).period;
}

/** The instant the next quota month starts (midnight on the 1st, Mexico City time). */
export function nextQuotaReset(at: Date = new Date()): Date {
  return new Date(quotaMonth(at).to);
}
