import { describe, expect, it } from 'vitest';
import { dec, toMoney } from './decimal';
import { addIva, emptySplit, type IvaFacts, motivoNoAcreditable } from './iva-creditable';
import { acreditable, proporcionDelMes } from './proportion';

// tax-rules.md §4, the pure rules: each case worked by hand in the test.

const cfdi = (fields: Partial<IvaFacts> = {}): IvaFacts => ({
  formaPago: '03',
  totalOperacion: dec('1160'),
  combustible: false,
  comprobante: 'cfdi',
  usoIva: null,
  ...fields,
});

describe('LIVA 5-I via LISR 27-III: cash payments', () => {
  it('cash over 2,000.00 is not creditable; 2,000.00 exactly or less is', () => {
    expect(motivoNoAcreditable(cfdi({ formaPago: '01', totalOperacion: dec('2320.00') }))).toBe('efectivo');
    expect(motivoNoAcreditable(cfdi({ formaPago: '01', totalOperacion: dec('2000.01') }))).toBe('efectivo');
    expect(motivoNoAcreditable(cfdi({ formaPago: '01', totalOperacion: dec('2000.00') }))).toBeNull();
    expect(motivoNoAcreditable(cfdi({ formaPago: '01', totalOperacion: dec('1160.00') }))).toBeNull();
    // The same 2,320.00 by transfer (03) or card (04) is creditable.
    expect(motivoNoAcreditable(cfdi({ formaPago: '03', totalOperacion: dec('2320.00') }))).toBeNull();
    expect(motivoNoAcreditable(cfdi({ formaPago: '04', totalOperacion: dec('2320.00') }))).toBeNull();
  });

  it('vehicle fuel paid in cash is never creditable, at any amount; by card it is', () => {
    expect(
      motivoNoAcreditable(cfdi({ formaPago: '01', combustible: true, totalOperacion: dec('500') })),
    ).toBe('combustible_efectivo');
    expect(motivoNoAcreditable(cfdi({ formaPago: '04', combustible: true }))).toBeNull();
  });
});

describe('LIVA 5-II: only IVA on a CFDI (or a pedimento, or 18-D) is creditable', () => {
  it('a manual expense without its CFDI UUID is not creditable; with it, a pedimento or 18-D it is', () => {
    expect(motivoNoAcreditable(cfdi({ comprobante: null }))).toBe('sin_cfdi');
    expect(motivoNoAcreditable(cfdi({ comprobante: 'uuid' }))).toBeNull();
    expect(motivoNoAcreditable(cfdi({ comprobante: 'pedimento' }))).toBeNull();
    expect(motivoNoAcreditable(cfdi({ comprobante: '18-D' }))).toBeNull();
  });
});

describe('LIVA 5-V and 4-A: the proportion', () => {
  it('100 % without exempt or non-object income', () => {
    expect(proporcionDelMes({ gravados: dec(50000), exentos: dec(0), noObjeto: dec(0) })).toBe(dec(100));
  });

  it('taxed ÷ all acts, 2 decimals: 70,000 taxed, 20,000 exempt, 10,000 non-object → 70.00 %', () => {
    // 70,000 / (70,000 + 20,000 + 10,000) = 0.7 → 70.00 %
    expect(proporcionDelMes({ gravados: dec(70000), exentos: dec(20000), noObjeto: dec(10000) })).toBe(
      dec(70),
    );
    // 2 / 3 = 0.666666… → 66.67 % (rounded half up at the hundredth of a percent)
    expect(proporcionDelMes({ gravados: dec(20000), exentos: dec(10000), noObjeto: dec(0) })).toBe(
      dec('66.67'),
    );
  });

  it('uso_iva gravado credits in full, exento never, the rest in proportion; non-creditable apart', () => {
    const split = emptySplit();
    addIva(split, dec(160), cfdi({ usoIva: 'gravado' }));
    addIva(split, dec(80), cfdi({ usoIva: 'exento' }));
    addIva(split, dec(320), cfdi());
    addIva(split, dec(400), cfdi({ formaPago: '01', totalOperacion: dec(2900) }));
    addIva(split, dec(48), cfdi({ comprobante: null }));
    const r = acreditable(split, dec('66.67'));
    // 160 + 320 × 66.67 % = 160 + 213.344 = 373.344
    expect(toMoney(r.acreditablePagado)).toBe(373.34);
    // Proportion: 320 − 213.344 + 80 = 186.656; cash 400; no CFDI 48 → 634.656
    expect(toMoney(r.porProporcion)).toBe(186.66);
    expect(toMoney(r.noAcreditable)).toBe(634.66);
    // Nothing lost: 160 + 80 + 320 + 400 + 48 = 1,008 = 373.344 + 634.656
    expect(r.acreditablePagado + r.noAcreditable).toBe(dec(1008));
  });
});
