import { describe, expect, it } from 'vitest';
import { amountInWords, numberInWords } from './amount-in-words';

describe('the total in words (amountInWords)', () => {
  it.each([
    ['0', 'CERO PESOS 00/100 M.N.'],
    ['1', 'UN PESO 00/100 M.N.'],
    ['21', 'VEINTIÚN PESOS 00/100 M.N.'],
    ['100', 'CIEN PESOS 00/100 M.N.'],
    ['101', 'CIENTO UN PESOS 00/100 M.N.'],
    ['1000', 'MIL PESOS 00/100 M.N.'],
    ['1001', 'MIL UN PESOS 00/100 M.N.'],
    ['1160.00', 'MIL CIENTO SESENTA PESOS 00/100 M.N.'],
    ['21000', 'VEINTIÚN MIL PESOS 00/100 M.N.'],
    ['1000000', 'UN MILLÓN DE PESOS 00/100 M.N.'],
    ['2000000.50', 'DOS MILLONES DE PESOS 50/100 M.N.'],
    ['1000100', 'UN MILLÓN CIEN PESOS 00/100 M.N.'],
    [
      '31531531.99',
      'TREINTA Y UN MILLONES QUINIENTOS TREINTA Y UN MIL QUINIENTOS TREINTA Y UN PESOS 99/100 M.N.',
    ],
    [
      '999999999999',
      'NOVECIENTOS NOVENTA Y NUEVE MIL NOVECIENTOS NOVENTA Y NUEVE MILLONES NOVECIENTOS NOVENTA Y NUEVE MIL NOVECIENTOS NOVENTA Y NUEVE PESOS 00/100 M.N.',
    ],
  ])('%s → %s', (total, words) => expect(amountInWords(total, 'MXN')).toBe(words));

  it('centavos: two decimals as written, more rounded half up on the text, 0.995 carries into the pesos', () => {
    expect(amountInWords('0.05', 'MXN')).toBe('CERO PESOS 05/100 M.N.');
    expect(amountInWords('12.5', 'MXN')).toBe('DOCE PESOS 50/100 M.N.');
    expect(amountInWords('16.254999', 'MXN')).toBe('DIECISÉIS PESOS 25/100 M.N.');
    expect(amountInWords('16.255', 'MXN')).toBe('DIECISÉIS PESOS 26/100 M.N.');
    expect(amountInWords('0.995', 'MXN')).toBe('UN PESO 00/100 M.N.');
  });

  it('other currencies are named, with their code instead of M.N.; an unnamed one by its code', () => {
    expect(amountInWords('290.58', 'USD')).toBe('DOSCIENTOS NOVENTA DÓLARES ESTADOUNIDENSES 58/100 USD');
    expect(amountInWords('1', 'EUR')).toBe('UN EURO 00/100 EUR');
    expect(amountInWords('2000000', 'EUR')).toBe('DOS MILLONES DE EUROS 00/100 EUR');
    expect(amountInWords('15.10', 'GBP')).toBe('QUINCE 10/100 GBP');
  });

  it('refuses what no CFDI amount is', () => {
    expect(() => amountInWords('-1', 'MXN')).toThrow(RangeError);
    expect(() => amountInWords('1,000.00', 'MXN')).toThrow(RangeError);
    expect(() => numberInWords(1e12)).toThrow(RangeError);
  });

  it('every number from 0 to 2,000 reads as distinct words (no gaps, no doubles)', () => {
    const all = Array.from({ length: 2001 }, (_, n) => numberInWords(n));
    expect(new Set(all).size).toBe(all.length);
    expect(all[16]).toBe('DIECISÉIS');
    expect(all[45]).toBe('CUARENTA Y CINCO');
    expect(all[500]).toBe('QUINIENTOS');
    expect(all[1999]).toBe('MIL NOVECIENTOS NOVENTA Y NUEVE');
  });
});
