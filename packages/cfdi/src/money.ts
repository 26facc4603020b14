// Amounts are JS numbers parsed from CFDI decimal strings (≤ 6 decimals); every comparison
// between amounts uses the 0.01 tolerance of docs/cfdi.md#amounts.

export const AMOUNT_TOLERANCE = 0.01;

/** Half away from zero to 2 decimals; the epsilon keeps 1.005 from rounding down to 1.00. */
export function round2(value: number): number {
  const rounded = Math.round((Math.abs(value) + Number.EPSILON) * 100) / 100;
  return value < 0 ? -rounded || 0 : rounded; // `|| 0` so -0.001 gives 0, not -0
}

/** To the 6 decimals CFDI amounts carry: clears float noise from sums of them. */
export function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6 || 0;
}

/** Equal within one cent (the 1e-9 absorbs float error in sums of 2-decimal amounts). */
export function sameAmount(a: number, b: number): boolean {
  return Math.abs(a - b) <= AMOUNT_TOLERANCE + 1e-9;
}
