import { describe, expect, it } from 'vitest';
import { dec, toMoney } from './decimal';
import { resicoAnual, resicoTasaAnual } from './resico-annual';

// tax-rules.md §5, LISR 113-F: the annual RESICO table and the annual computation, by hand.

describe('LISR 113-F annual table', () => {
  it.each([
    ['300000.00', '1.00'],
    ['300000.01', '1.10'],
    ['600000.00', '1.10'],
    ['600000.01', '1.50'],
    ['1000000.00', '1.50'],
    ['1000000.01', '2.00'],
    ['2500000.00', '2.00'],
    ['2500000.01', '2.50'],
    ['3500000.00', '2.50'],
  ])('%s → %s %%', (ingresos, tasa) => {
    expect(resicoTasaAnual(dec(ingresos))).toBe(dec(tasa));
  });
});

describe('LISR 113-F annual ISR', () => {
  it('income × single rate, less provisional payments and ISR withheld (113-J) → a cargo', () => {
    // 12 months of 40,000.00 = 480,000.00 → 1.10 % annual: 5,280.00.
    // Monthly (113-E): 40,000 ≤ 50,000 → 1.10 %: 440.00 each, 11 of them computed, one overridden at 300.00.
    const r = resicoAnual({
      ingresosCobrados: dec(480000),
      pagosProvisionales: [...Array(11).fill(dec(440)), dec(300)],
      isrRetenido: dec(600),
    });
    // 5,280.00 − (11 × 440 + 300 = 5,140.00) − 600.00 = −460.00 → a favor 460.00
    expect(toMoney(r.isrCausado)).toBe(5280);
    expect(toMoney(r.pagosProvisionales)).toBe(5140);
    expect(toMoney(r.isrACargo)).toBe(0);
    expect(toMoney(r.isrAFavor)).toBe(460);
  });

  it('a year whose months sat in lower brackets owes the difference', () => {
    // 6 months of 20,000 (1.00 %: 200 each) and 6 of 90,000 (2.00 %: 1,800 each): Σ pagos = 12,000.
    // Year: 660,000 → 1.50 %: 9,900. 9,900 − 12,000 = −2,100 → a favor.
    const r = resicoAnual({
      ingresosCobrados: dec(660000),
      pagosProvisionales: [...Array(6).fill(dec(200)), ...Array(6).fill(dec(1800))],
      isrRetenido: dec(0),
    });
    expect(toMoney(r.tasa)).toBe(1.5);
    expect(toMoney(r.isrCausado)).toBe(9900);
    expect(toMoney(r.isrAFavor)).toBe(2100);
    // Monthly 1.00 % on 250,000 in the year with nothing paid: 250,000 × 1 % = 2,500 a cargo.
    const small = resicoAnual({ ingresosCobrados: dec(250000), pagosProvisionales: [], isrRetenido: dec(0) });
    expect(toMoney(small.isrACargo)).toBe(2500);
  });
});
