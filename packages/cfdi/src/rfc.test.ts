import { describe, expect, it } from 'vitest';
import {
  checkProfileRfc,
  hasValidCheckDigit,
  isGenericRfc,
  isValidRfc,
  normalizeRfc,
  parseRfc,
  personaOfRfc,
  RFC_EXTRANJERO,
  RFC_PUBLICO_GENERAL,
  type RfcProblem,
  rfcCheckDigit,
} from './rfc';

const problemOf = (r: ReturnType<typeof checkProfileRfc>): RfcProblem | undefined =>
  'problem' in r ? r.problem : undefined;

describe('check digit (published vectors, docs/cfdi.md#rfc; informational only)', () => {
  it.each([
    ['SAT970701NN3', '3'], // worked example, moral (leading space counts 37 x 13)
    ['SORC591116FJ6', '6'], // worked example, física
    ['CAMA911215CJ0', '0'], // d = 11 -> '0'
    ['COSC8001137NA', 'A'], // d = 10 -> 'A'
    ['DIM8701081LA', 'A'],
    ['A&A050908GT0', '0'], // & = 24
    ['AÑÑ801231JK0', '0'], // Ñ = 38
    ['ISD950921HE5', '5'],
    ['EKU9003173C9', '9'],
    ['H&E951128469', '9'],
    ['KIJ0906199R1', '1'],
    ['XIQB891116QE4', '4'],
    ['POT9207213D6', '6'],
  ])('%s has check digit %s', (rfc, digit) => {
    expect(rfcCheckDigit(rfc)).toBe(digit);
    expect(hasValidCheckDigit(rfc)).toBe(true);
  });

  it('computes on lower-case input too', () => {
    expect(rfcCheckDigit('añÑ801231jk0')).toBe('0');
  });

  it('generic XAXX010101000 fails its own check digit (computed 4)', () => {
    expect(rfcCheckDigit(RFC_PUBLICO_GENERAL)).toBe('4');
    expect(hasValidCheckDigit(RFC_PUBLICO_GENERAL)).toBe(false);
  });

  it('a check-digit mismatch is accepted by both the CFDI and the profile checks', () => {
    expect(hasValidCheckDigit('SORC591116FJ7')).toBe(false);
    expect(isValidRfc('SORC591116FJ7')).toBe(true);
    expect(checkProfileRfc('SORC591116FJ7', 'FISICA')).toEqual({ rfc: 'SORC591116FJ7' });
    expect(checkProfileRfc('SAT970701NN4', 'MORAL')).toEqual({ rfc: 'SAT970701NN4' });
  });

  it('wrong length: rfcCheckDigit throws, hasValidCheckDigit is false', () => {
    expect(() => rfcCheckDigit('SAT97070')).toThrow(RangeError);
    expect(hasValidCheckDigit('SAT97070')).toBe(false);
  });
});

describe('format rule: SAT pattern with Ñ and &', () => {
  it.each([
    'AÑÑ801231JK0', // moral with Ñ
    'PEÑA800229AB4', // física with Ñ
    'ÑAÑ960229Q85', // Ñ first
    'A&A050908GT0', // moral with &
    'H&E951128469', // real sample RFC with & (XML gives it unescaped)
  ])('accepts %s', (rfc) => {
    expect(parseRfc(rfc)).toEqual({ rfc });
    expect(checkProfileRfc(rfc)).toEqual({ rfc });
  });

  it.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['too short', 'SAT970701N'],
    ['too long', 'SORC591116FJ66'],
    ['5 name letters', 'SORCA591116FJ6'],
    ['digit in the name part', 'S0RC591116FJ6'],
    ['space inside', 'SORC 591116FJ6'],
    ['hyphens', 'SORC-591116-FJ6'],
    ['letter in the date', 'SORC59111AFJ6'],
    ['check digit other than 0-9/A', 'SORC591116FJB'],
    ['symbol in the homoclave', 'SORC591116F&6'],
    ['other accented letter', 'SÁRC591116FJ6'],
    ['XML-escaped ampersand', 'H&amp;E951128469'],
  ])('refuses %s', (_, input) => {
    const problem = problemOf(checkProfileRfc(input));
    expect(problem?.rule).toBe('format');
    expect(problem?.message).toMatch(/^RFC format:/);
    expect(isValidRfc(input)).toBe(false);
  });

  it('refuses a non-string (untrusted JSON) as a format problem instead of throwing', () => {
    expect(problemOf(checkProfileRfc(undefined as unknown as string))?.rule).toBe('format');
  });

  it('does not reject RFCs whose letters spell a word ("palabras inconvenientes")', () => {
    expect(isValidRfc('PUTX800101AB1')).toBe(true);
  });
});

describe('normalisation: upper-cased, trimmed input', () => {
  it.each([
    ['sorc591116fj6', 'SORC591116FJ6'],
    ['  SaT970701nN3\n', 'SAT970701NN3'],
    ['pEña800229ab4', 'PEÑA800229AB4'], // lower-case ñ becomes Ñ
    ['h&e951128469', 'H&E951128469'],
    ['peN\u0303a800229ab4', 'PEÑA800229AB4'], // decomposed N + combining tilde
  ])('%j -> %s', (input, rfc) => {
    expect(normalizeRfc(input)).toBe(rfc);
    expect(parseRfc(input)).toEqual({ rfc });
    expect(checkProfileRfc(input)).toEqual({ rfc });
  });

  it('only a-z and ñ are upper-cased (ß must not expand into SS and make junk valid)', () => {
    expect(normalizeRfc('ßA970701NN3')).toBe('ßA970701NN3');
    expect(isValidRfc('ßA970701NN3')).toBe(false);
  });
});

describe('date rule: YYMMDD is a real calendar date', () => {
  it.each([
    ['000229', 'AAAA000229AAA'], // 2000 is leap (1900 is not; the ambiguous century is allowed)
    ['960229', 'AAAA960229AAA'],
    ['800229 with Ñ', 'PEÑA800229AB4'],
    ['moral 040229', 'AAA040229AA1'],
    ['991231', 'AAAA991231AAA'],
    ['010131', 'AAAA010131AAA'],
  ])('accepts %s', (_, rfc) => {
    expect(isValidRfc(rfc)).toBe(true);
  });

  it.each([
    ['010229', 'AAAA010229AAA'], // 2001 and 1901 are not leap
    ['990229', 'AAAA990229AAA'],
    ['990230', 'AAAA990230AAA'],
    ['000230', 'AAAA000230AAA'],
    ['310230', 'AAAA310230AAA'], // the SAT XSD alone accepts Feb 30
    ['990431', 'AAAA990431AAA'],
    ['991301', 'AAAA991301AAA'],
    ['990001', 'AAAA990001AAA'],
    ['990100', 'AAAA990100AAA'],
    ['991232', 'AAA991232AA1'],
  ])('refuses %s', (yymmdd, rfc) => {
    const problem = problemOf(parseRfc(rfc));
    expect(problem).toEqual({ rule: 'date', message: `RFC date: ${yymmdd} is not a real calendar date` });
    expect(problemOf(checkProfileRfc(rfc))?.rule).toBe('date');
  });
});

describe('generic rule: XAXX010101000 / XEXX010101000', () => {
  it.each([RFC_PUBLICO_GENERAL, RFC_EXTRANJERO])(
    '%s is refused for a profile, whatever tipo_persona',
    (rfc) => {
      for (const tipo of [undefined, 'FISICA', 'MORAL'] as const) {
        const problem = problemOf(checkProfileRfc(rfc, tipo));
        expect(problem?.rule).toBe('generic');
        expect(problem?.message).toContain(`RFC generic: ${rfc}`);
      }
      expect(problemOf(checkProfileRfc(rfc.toLowerCase()))?.rule).toBe('generic');
    },
  );

  it.each([RFC_PUBLICO_GENERAL, RFC_EXTRANJERO])('%s is accepted as a CFDI RFC', (rfc) => {
    expect(isValidRfc(rfc)).toBe(true);
    expect(parseRfc(` ${rfc.toLowerCase()} `)).toEqual({ rfc });
    expect(isGenericRfc(rfc)).toBe(true);
  });

  it('other RFCs are not generic', () => {
    expect(isGenericRfc('XAXX010101001')).toBe(false);
    expect(isGenericRfc('SORC591116FJ6')).toBe(false);
  });
});

describe('tipo_persona rule: 12 characters = MORAL, 13 = FISICA', () => {
  it('personaOfRfc goes by length', () => {
    expect(personaOfRfc('SAT970701NN3')).toBe('MORAL');
    expect(personaOfRfc('SORC591116FJ6')).toBe('FISICA');
    expect(personaOfRfc('AÑÑ801231JK0')).toBe('MORAL');
    expect(personaOfRfc('SAT97070')).toBeNull();
  });

  it('matching length and tipo_persona pass', () => {
    expect(checkProfileRfc('SAT970701NN3', 'MORAL')).toEqual({ rfc: 'SAT970701NN3' });
    expect(checkProfileRfc('SORC591116FJ6', 'FISICA')).toEqual({ rfc: 'SORC591116FJ6' });
  });

  it('a 12-character RFC declared FISICA is refused', () => {
    const problem = problemOf(checkProfileRfc('SAT970701NN3', 'FISICA'));
    expect(problem?.rule).toBe('tipo_persona');
    expect(problem?.message).toMatch(/^RFC length vs tipo_persona: .*SAT970701NN3 has 12 .*FISICA/);
  });

  it('a 13-character RFC declared MORAL is refused', () => {
    const problem = problemOf(checkProfileRfc('SORC591116FJ6', 'MORAL'));
    expect(problem?.rule).toBe('tipo_persona');
    expect(problem?.message).toMatch(/^RFC length vs tipo_persona: .*SORC591116FJ6 has 13 .*MORAL/);
  });

  it('without tipo_persona only format, date and generic apply', () => {
    expect(checkProfileRfc('SAT970701NN3')).toEqual({ rfc: 'SAT970701NN3' });
    expect(checkProfileRfc('SORC591116FJ6')).toEqual({ rfc: 'SORC591116FJ6' });
  });
});
