import type { Party } from './doc-taxes';

// tax-rules §8: CFDI de Retenciones 2.0 are not imported, so what a digital platform withholds from
// a seller (LISR 113-A, LIVA 18-J) is missing and the month's ISR and IVA a cargo come out too high.
// Folio cannot see those withholdings; it recognises platform income by the profile's régimen 625
// (Plataformas Tecnológicas) or by a client's name holding, as a word (accents and case ignored), one
// of the platforms of transport, delivery, lodging and sales that operate in Mexico. A short list errs
// on the side of silence; docs/iva-isr.md names it.

const PLATAFORMAS =
  /\b(uber|didi|rappi|cabify|airbnb|booking|expedia|mercado ?libre|amazon|shein|temu|ebay|etsy)\b/;

const words = (nombre: string) =>
  nombre
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** RMF's régimen for income through technological platforms (LISR arts. 113-A to 113-D). */
export const REGIMEN_PLATAFORMAS = '625';

/** The advertencia, once, naming the platform-like clients among the month's income parties. */
export function platformWarning(regimenes: string[], clients: Party[]): string[] {
  const found = new Set<string>();
  for (const c of clients) if (PLATAFORMAS.test(words(c.nombre))) found.add(`${c.nombre} (${c.rfc})`);
  if (regimenes.includes(REGIMEN_PLATAFORMAS) && clients.length > 0) found.add('régimen 625');
  if (found.size === 0) return [];
  return [
    `ingresos de plataformas digitales (${[...found].sort().join(', ')}): Folio no importa los CFDI de ` +
      'Retenciones 2.0, así que el ISR (LISR art. 113-A) y el IVA (LIVA art. 18-J) que la plataforma ' +
      'retuvo no se restan y el ISR e IVA a cargo salen más altos de lo que corresponde',
  ];
}
