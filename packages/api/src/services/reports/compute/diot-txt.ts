import { type DiotProveedor, ZONAS } from './diot';

// The batch file SAT's DIOT platform loads (DIOT version 2, 2025; docs/diot.md has the 54 fields
// and their source): UTF-8, no header, one line per supplier and tipo de operación, fields
// separated by `|`, amounts in whole pesos, a field that does not apply left empty.

export const DIOT_FIELDS = 54;
const MAX_DIGITS = 14;

/**
 * Whole pesos as CFF art. 20 adjusts amounts: 1 to 50 centavos down to the peso below, 51 to 99
 * up to the peso above. Zero pesos (and a negative figure, which the layout cannot hold) is left empty.
 */
export function pesosCff20(amount: number): string {
  const cents = Math.round(amount * 100);
  if (cents <= 0) return '';
  const pesos = Math.floor(cents / 100) + (cents % 100 > 50 ? 1 : 0);
  if (pesos === 0) return '';
  const text = String(pesos);
  if (text.length > MAX_DIGITS) throw new RangeError(`DIOT amount over ${MAX_DIGITS} digits: ${text}`);
  return text;
}

/** The layout keeps no `|` nor line breaks inside a field. */
const clean = (s: string | null) => (s ?? '').replace(/[|\r\n]+/g, ' ').trim();

/** One supplier's line, field by field (positions 1–54). */
export function diotLine(p: DiotProveedor): string[] {
  const foreign = p.tipo_tercero === '05';
  const supplier = [
    p.tipo_tercero, // 1
    p.tipo_operacion, // 2
    foreign ? '' : p.rfc, // 3 RFC (national and global)
    foreign ? clean(p.id_fiscal) : '', // 4 número de identificación fiscal
    foreign ? clean(p.nombre) : '', // 5 nombre del extranjero
    foreign ? clean(p.pais) : '', // 6 país o jurisdicción de residencia fiscal
    '', // 7 lugar de la jurisdicción fiscal (only for a country outside SAT's list)
  ];
  // 8–17: value of acts paid and their returns, by zone: norte, sur, 16 %, tangible and intangible imports.
  const actos = ZONAS.flatMap((z) => [p.actos[z].pagado, p.actos[z].devoluciones]);
  // 18–27: creditable IVA, exclusively taxed and with proportion, by zone.
  const acreditable = ZONAS.flatMap((z) => [
    p.iva_acreditable[z].exclusivamente_gravadas,
    p.iva_acreditable[z].con_proporcion,
  ]);
  // 28–47: non-creditable IVA by proportion, requirements, exempt acts and non-object acts, by zone.
  const noAcreditable = ZONAS.flatMap((z) => {
    const n = p.iva_no_acreditable[z];
    return [n.por_proporcion, n.no_cumple_requisitos, n.exentas, n.no_objeto];
  });
  // 48–53: IVA withheld; imports exempt; exempt; 0 %; not subject (in Mexico; without establishment).
  // The layout has no returns column for 0 %, exempt and not subject: what was returned is subtracted there.
  const adicionales = [
    p.iva_retenido,
    p.actos.importacion_exenta.pagado - p.actos.importacion_exenta.devoluciones,
    p.actos.exento.pagado - p.actos.exento.devoluciones,
    p.actos.tasa_0.pagado - p.actos.tasa_0.devoluciones,
    p.actos.no_objeto.pagado - p.actos.no_objeto.devoluciones,
    // Not subject for lack of an establishment in Mexico (LIVA 1, 10, 14, 16): Folio cannot tell.
    0,
  ];
  const amounts = [...actos, ...acreditable, ...noAcreditable, ...adicionales].map(pesosCff20);
  // 54: the taxpayer gave tax effects to the CFDI of these operations (01) or not (02).
  return [...supplier, ...amounts, p.efectos_fiscales ? '01' : '02'];
}

export function diotTxt(proveedores: DiotProveedor[]): string {
  return proveedores.map((p) => `${diotLine(p).join('|')}\n`).join('');
}
