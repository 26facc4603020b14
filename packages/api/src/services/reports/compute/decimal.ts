// Money inside a report as exact fixed-point integers (10⁻¹² peso), so that sums of thousands of
// amounts, exchange rates and ImpPagado/Total proportions carry no float drift; a figure becomes a
// 2-decimal number once, when the report is shaped (`toMoney`).

export type Dec = bigint;

const DIGITS = 12;
const SCALE = 10n ** BigInt(DIGITS);
export const ZERO: Dec = 0n;
export const ONE: Dec = SCALE;

/** A decimal as written (`"1234.56"`, a numeric column) or a JS number (its shortest decimal form). */
export function dec(value: number | string | null | undefined): Dec {
  if (value === null || value === undefined || value === '') return ZERO;
  const fast = micro(value);
  // Zero is most of a year's by-rate columns and withholdings: no bigint to build.
  if (fast === 0) return ZERO;
  if (fast !== null) return BigInt(fast) * MICRO;
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  const match = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) throw new RangeError(`not a decimal: ${text}`);
  const [, sign, whole = '', fraction = ''] = match;
  const digits = `${whole || '0'}${fraction.slice(0, DIGITS).padEnd(DIGITS, '0')}`;
  const magnitude = BigInt(digits);
  return sign === '-' ? -magnitude : magnitude;
}

const MICRO = 10n ** BigInt(DIGITS - 6);
const SIX_DECIMALS = /^-?\d{1,9}(\.\d{0,6})?$/;

/**
 * The common case fast (a report parses every amount of a year): an amount under a billion with at
 * most 6 decimals, as CFDI write them, is exactly `round(x × 10⁶)` in a double.
 */
function micro(value: number | string): number | null {
  if (typeof value === 'string') {
    if (!SIX_DECIMALS.test(value)) return null;
    return Math.round(Number(value) * 1e6);
  }
  if (!Number.isFinite(value) || Math.abs(value) >= 1e9) return null;
  const scaled = Math.round(value * 1e6);
  // Only when the number has no more than 6 decimals (otherwise parse its full text).
  return Math.abs(scaled - value * 1e6) < 1e-3 ? scaled : null;
}

function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite amount: ${n}`);
  const text = String(n);
  return text.includes('e') ? n.toFixed(DIGITS) : text;
}

/** a × b. */
export const mul = (a: Dec, b: Dec): Dec => (b === ONE ? a : divRound(a * b, SCALE));

/** a × num / den, one rounding at 10⁻¹² (den 0 → 0: nothing to apportion). */
export const ratio = (a: Dec, num: Dec, den: Dec): Dec => (den === ZERO ? ZERO : divRound(a * num, den));

export const sum = (values: Iterable<Dec>): Dec => {
  let total = ZERO;
  for (const v of values) total += v;
  return total;
};

export const max0 = (a: Dec): Dec => (a > ZERO ? a : ZERO);

/** Half away from zero. */
function divRound(n: bigint, d: bigint): bigint {
  const negative = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const q = (an * 2n + ad) / (ad * 2n);
  return negative ? -q : q;
}

const CENT = SCALE / 100n;

/** The amount in whole centavos, half away from zero: where a figure is rounded, once. */
export const toCents = (a: Dec): bigint => divRound(a, CENT);

/** The figure as the report shows it: 2 decimals, half away from zero. */
export const toMoney = (a: Dec): number => Number(toCents(a)) / 100;

/** A cent-rounded amount back as a Dec (for comparisons made on what is shown, like the RESICO brackets). */
export const centsDec = (a: Dec): Dec => toCents(a) * CENT;
