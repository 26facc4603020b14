// RFC (Registro Federal de Contribuyentes) rules. Pure: no I/O.
// The rules: docs/cfdi.md#rfc.

export type TipoPersona = 'FISICA' | 'MORAL';

export type RfcProblem = {
  rule: 'format' | 'date' | 'generic' | 'tipo_persona';
  message: string;
};

export type RfcResult = { rfc: string } | { problem: RfcProblem };

/** "Público en general": legitimate as a CFDI receptor, never as a profile. */
export const RFC_PUBLICO_GENERAL = 'XAXX010101000';
/** Foreign counterpart without a Mexican RFC: same policy as the público-en-general RFC. */
export const RFC_EXTRANJERO = 'XEXX010101000';

// SAT's t_RFC pattern (tdCFDI.xsd), except that the date is matched as any six digits: month/day
// ranges are enforced by the stricter calendar check so the error names the date rule.
// The date is then the six characters before the 3-character homoclave.
const RFC_SHAPE = /^[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{2}[0-9A]$/;

/**
 * Trim and upper-case. NFC first so a decomposed "N + combining tilde" becomes the single Ñ
 * the pattern expects. Only a-z and ñ are upper-cased: a blanket toUpperCase() would expand
 * characters such as ß into "SS" and could turn junk into a well-formed RFC.
 */
export function normalizeRfc(input: string): string {
  // Already normal, as nearly every RFC is: nothing to compose, trim or upper-case.
  if (isNormal(input)) return input;
  return input
    .normalize('NFC')
    .trim()
    .replace(/[a-zñ]/g, (c) => c.toUpperCase());
}

// Only A-Z, 0-9, Ñ and &. A loop rather than a regular expression: it runs ~15 times per document
// (parse, warnings, classify, validate).
function isNormal(rfc: string): boolean {
  for (let i = 0; i < rfc.length; i++) {
    const c = rfc.charCodeAt(i);
    if (!((c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 0xd1 || c === 38)) return false;
  }
  return true;
}

/** Format + calendar date only; generic RFCs pass (they are valid emisor/receptor RFCs in a CFDI). */
export function parseRfc(input: string): RfcResult {
  // Callers may hand over untrusted JSON; a non-string is a format error, not a crash.
  const rfc = typeof input === 'string' ? normalizeRfc(input) : '';
  if (!RFC_SHAPE.test(rfc)) {
    return {
      problem: {
        rule: 'format',
        message:
          'RFC format: expected 3-4 letters (A-Z, Ñ, &), a YYMMDD date and a 3-character homoclave ' +
          '(2 letters/digits and a check digit 0-9 or A)',
      },
    };
  }
  if (!hasRealDate(rfc)) {
    const date = rfc.slice(-9, -3);
    return { problem: { rule: 'date', message: `RFC date: ${date} is not a real calendar date` } };
  }
  return { rfc };
}

export function isValidRfc(input: string): boolean {
  return 'rfc' in parseRfc(input);
}

/** The check for taxpayer profiles: format, date, no generic RFC, length agreeing with tipo_persona. */
export function checkProfileRfc(input: string, tipoPersona?: TipoPersona): RfcResult {
  const parsed = parseRfc(input);
  if ('problem' in parsed) return parsed;
  const { rfc } = parsed;
  // Before the length test: generic RFCs are 13 chars and would otherwise pass as FISICA.
  if (isGenericRfc(rfc)) {
    const what = rfc === RFC_PUBLICO_GENERAL ? 'público en general' : 'foreign-counterpart';
    return {
      problem: { rule: 'generic', message: `RFC generic: ${rfc} is the ${what} RFC and cannot be a profile` },
    };
  }
  if (tipoPersona && personaOfRfc(rfc) !== tipoPersona) {
    return {
      problem: {
        rule: 'tipo_persona',
        message:
          `RFC length vs tipo_persona: a MORAL RFC has 12 characters and a FISICA RFC 13; ` +
          `${rfc} has ${rfc.length} but tipo_persona is ${tipoPersona}`,
      },
    };
  }
  return { rfc };
}

/** By length alone (12 = moral, 13 = física). Generic RFCs come out FISICA: test isGenericRfc first. */
export function personaOfRfc(rfc: string): TipoPersona | null {
  const { length } = normalizeRfc(rfc);
  return length === 12 ? 'MORAL' : length === 13 ? 'FISICA' : null;
}

export function isGenericRfc(rfc: string): boolean {
  const value = normalizeRfc(rfc);
  return value === RFC_PUBLICO_GENERAL || value === RFC_EXTRANJERO;
}

// Check-digit alphabet: the index of a character is its value (0-9, A-N 10-23, & 24, O-Z 25-36,
// space 37, Ñ 38). Characters not listed count 0, as in nodecfdi/rfc and phpcfdi/rfc.
const CHECK_DIGIT_VALUES = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';
const VALUE_BY_CODE: readonly number[] = Array.from({ length: 256 }, (_, code) =>
  Math.max(0, CHECK_DIGIT_VALUES.indexOf(String.fromCharCode(code))),
);

/**
 * Expected check digit (last character) of a 12- or 13-character RFC. Informational only:
 * SAT has issued RFCs that fail it, so a mismatch must never reject an RFC.
 */
export function rfcCheckDigit(rfc: string): string {
  const value = normalizeRfc(rfc);
  if (value.length !== 12 && value.length !== 13) {
    throw new RangeError(`RFC check digit: expected 12 or 13 characters, got ${value.length}`);
  }
  // Morales get a leading space so both kinds are weighted over the same 13 positions.
  const space = 13 - value.length;
  let sum = space * VALUE_BY_CODE[32]! * 13;
  for (let i = space; i < 12; i++) sum += (VALUE_BY_CODE[value.charCodeAt(i - space)] ?? 0) * (13 - i);
  const d = 11 - (sum % 11);
  return d === 11 ? '0' : d === 10 ? 'A' : String(d);
}

export function hasValidCheckDigit(rfc: string): boolean {
  const value = normalizeRfc(rfc);
  if (value.length !== 12 && value.length !== 13) return false;
  return rfcCheckDigit(value) === value.at(-1);
}

// The century of YY is ambiguous. 19YY and 20YY have the same leap-ness except for YY = 00, where
// 2000 is leap and 1900 is not; checking against 20YY therefore accepts Feb 29 whenever either
// century allows it (same result as nodecfdi/rfc, which builds 20YY-MM-DD). Arithmetic rather than
// a Date: it runs for both parties of every document.
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Whether the YYMMDD of an RFC of the right shape is a calendar date. */
function hasRealDate(rfc: string): boolean {
  const at = rfc.length - 9;
  const twoDigits = (i: number) => (rfc.charCodeAt(i) - 48) * 10 + rfc.charCodeAt(i + 1) - 48;
  const yy = twoDigits(at);
  const mm = twoDigits(at + 2);
  const dd = twoDigits(at + 4);
  if (mm < 1 || mm > 12 || dd < 1) return false;
  // 2000 is a leap year, so 20YY is one exactly when YY is a multiple of 4.
  return dd <= (mm === 2 ? (yy % 4 === 0 ? 29 : 28) : DAYS_IN_MONTH[mm - 1]!);
}
