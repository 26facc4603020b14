// The total in words as Mexican printed CFDI write it: "MIL CIENTO SESENTA PESOS 00/100 M.N."
// (docs/cfdi.md#printed-representation). Written here rather than taken from a number-to-words
// library because the currency form needs the apocope before a noun (UN PESO, VEINTIÚN MIL,
// TREINTA Y UN MILLONES) and "DE" after exact millions (UN MILLÓN DE PESOS), which generic
// Spanish converters do not do.

const SMALL = [
  'CERO',
  'UN',
  'DOS',
  'TRES',
  'CUATRO',
  'CINCO',
  'SEIS',
  'SIETE',
  'OCHO',
  'NUEVE',
  'DIEZ',
  'ONCE',
  'DOCE',
  'TRECE',
  'CATORCE',
  'QUINCE',
  'DIECISÉIS',
  'DIECISIETE',
  'DIECIOCHO',
  'DIECINUEVE',
  'VEINTE',
  'VEINTIÚN',
  'VEINTIDÓS',
  'VEINTITRÉS',
  'VEINTICUATRO',
  'VEINTICINCO',
  'VEINTISÉIS',
  'VEINTISIETE',
  'VEINTIOCHO',
  'VEINTINUEVE',
];
const TENS = ['', '', '', 'TREINTA', 'CUARENTA', 'CINCUENTA', 'SESENTA', 'SETENTA', 'OCHENTA', 'NOVENTA'];
const HUNDREDS = [
  '',
  'CIENTO',
  'DOSCIENTOS',
  'TRESCIENTOS',
  'CUATROCIENTOS',
  'QUINIENTOS',
  'SEISCIENTOS',
  'SETECIENTOS',
  'OCHOCIENTOS',
  'NOVECIENTOS',
];

function below1000(n: number): string {
  if (n === 100) return 'CIEN';
  const parts: string[] = [];
  if (n >= 100) parts.push(HUNDREDS[Math.floor(n / 100)]!);
  const r = n % 100;
  if (r >= 30) parts.push(r % 10 ? `${TENS[Math.floor(r / 10)]} Y ${SMALL[r % 10]}` : TENS[r / 10]!);
  else if (r > 0) parts.push(SMALL[r]!);
  return parts.join(' ');
}

function below1e6(n: number): string {
  const thousands = Math.floor(n / 1000);
  const rest = n % 1000;
  const parts: string[] = [];
  if (thousands) parts.push(thousands === 1 ? 'MIL' : `${below1000(thousands)} MIL`);
  if (rest) parts.push(below1000(rest));
  return parts.join(' ');
}

/**
 * A whole number (0 to 999,999,999,999) in upper-case Spanish as it stands before a masculine noun:
 * 1 → UN, 21 → VEINTIÚN, 1,001 → MIL UN, 2,000,000 → DOS MILLONES.
 */
export function numberInWords(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= 1e12) throw new RangeError(`not a CFDI whole amount: ${n}`);
  if (n === 0) return 'CERO';
  const millions = Math.floor(n / 1e6);
  const rest = n % 1e6;
  const parts: string[] = [];
  if (millions) parts.push(millions === 1 ? 'UN MILLÓN' : `${below1e6(millions)} MILLONES`);
  if (rest) parts.push(below1e6(rest));
  return parts.join(' ');
}

/** Currency names (singular, plural) of c_Moneda codes a Mexican invoice commonly carries; all masculine. */
const CURRENCY_NAMES: Record<string, [string, string]> = {
  MXN: ['PESO', 'PESOS'],
  USD: ['DÓLAR ESTADOUNIDENSE', 'DÓLARES ESTADOUNIDENSES'],
  CAD: ['DÓLAR CANADIENSE', 'DÓLARES CANADIENSES'],
  EUR: ['EURO', 'EUROS'],
  JPY: ['YEN', 'YENES'],
  CHF: ['FRANCO SUIZO', 'FRANCOS SUIZOS'],
  CNY: ['YUAN', 'YUANES'],
};

/**
 * `total` (the CFDI's decimal text, e.g. "1160.00") in words with its cents as /100: "MIL CIENTO
 * SESENTA PESOS 00/100 M.N.", "UN MILLÓN DE PESOS 00/100 M.N.", "CIEN DÓLARES ESTADOUNIDENSES
 * 50/100 USD". A currency without a name here is named by its code ("… 00/100 GBP"). Cents are
 * rounded half up from the written decimals, on the text (no float error).
 */
export function amountInWords(total: string, moneda: string): string {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(total.trim());
  if (!match) throw new RangeError(`not a CFDI amount: "${total}"`);
  let whole = Number(match[1]);
  let cents = Math.round(Number((match[2] ?? '').padEnd(3, '0').slice(0, 3)) / 10);
  if (cents === 100) {
    whole++;
    cents = 0;
  }
  const name = CURRENCY_NAMES[moneda];
  const exactMillions = whole >= 1e6 && whole % 1e6 === 0;
  const noun = name ? ` ${exactMillions ? 'DE ' : ''}${whole === 1 ? name[0] : name[1]}` : '';
  const suffix = moneda === 'MXN' ? 'M.N.' : moneda;
  return `${numberInWords(whole)}${noun} ${String(cents).padStart(2, '0')}/100 ${suffix}`;
}
