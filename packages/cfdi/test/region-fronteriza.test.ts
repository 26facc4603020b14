import { describe, expect, it } from 'vitest';
import { regionFronteriza } from '../src/region-fronteriza';

describe('the 8 % border region of a LugarExpedicion postal code', () => {
  it('Baja California (21000–22999: every municipality in the región fronteriza norte) is norte', () => {
    expect(regionFronteriza('21000')).toBe('norte'); // Mexicali
    expect(regionFronteriza('22000')).toBe('norte'); // Tijuana
    expect(regionFronteriza('22999')).toBe('norte');
  });

  it('any other or malformed postal code is unknown (null), never guessed', () => {
    expect(regionFronteriza('20999')).toBeNull(); // Aguascalientes
    expect(regionFronteriza('23000')).toBeNull(); // Baja California Sur
    expect(regionFronteriza('06000')).toBeNull();
    expect(regionFronteriza('2200')).toBeNull();
    expect(regionFronteriza(null)).toBeNull();
  });
});
