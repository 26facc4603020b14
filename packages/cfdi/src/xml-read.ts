// Typed reads of attributes and children of the element tree. A required value that is missing
// or malformed rejects the file, naming the attribute and element.

import { CfdiRejection } from './rejection';
import type { XmlElement } from './xml-tree';

// SAT's own bounds, which are also what the database columns hold: amounts are t_Importe within
// numeric(18,6) (12 integer digits), counters fit an integer column, and no attribute of the
// Anexo 20 is longer than t_Descripcion's 1,000 characters (names: 254).
export const MAX_AMOUNT = 1e12;
const MAX_INTEGER = 1e9;
const MAX_TEXT = 1000;
export const MAX_NAME = 254;
// t_FechaH: local date-time without zone, years 2010-2099.
const FECHA_H = /^20[1-9]\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;

// Loops rather than filter/flatMap: every read of a document goes through these. Element names
// and namespaces compare cheaply: CFDI namespaces are the NS strings themselves (xml-tree).
export function children(el: XmlElement, ns: string, name: string): XmlElement[] {
  return pushChildren([], el, ns, name);
}

/** The `name` children of each of `parents`, in document order. */
export function childrenOfEach(parents: readonly XmlElement[], ns: string, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (const p of parents) pushChildren(found, p, ns, name);
  return found;
}

export function child(el: XmlElement, ns: string, name: string): XmlElement | undefined {
  for (const c of el.children) if (c.ns === ns && c.name === name) return c;
  return undefined;
}

/** `name` elements inside the `group` children, e.g. Conceptos/Concepto. */
export function grandchildren(el: XmlElement, ns: string, group: string, name: string): XmlElement[] {
  return pushGrandchildren([], el, ns, group, name);
}

/** grandchildren of each of `parents`, in document order. */
export function grandchildrenOfEach(
  parents: readonly XmlElement[],
  ns: string,
  group: string,
  name: string,
): XmlElement[] {
  const found: XmlElement[] = [];
  for (const p of parents) pushGrandchildren(found, p, ns, group, name);
  return found;
}

function pushChildren(found: XmlElement[], el: XmlElement, ns: string, name: string): XmlElement[] {
  for (const c of el.children) if (c.ns === ns && c.name === name) found.push(c);
  return found;
}

function pushGrandchildren(
  found: XmlElement[],
  el: XmlElement,
  ns: string,
  group: string,
  name: string,
): XmlElement[] {
  for (const g of el.children) if (g.ns === ns && g.name === group) pushChildren(found, g, ns, name);
  return found;
}

export function requiredChild(el: XmlElement, ns: string, name: string): XmlElement {
  const found = child(el, ns, name);
  if (!found) throw new CfdiRejection(`falta el nodo ${name} en ${el.name}`);
  return found;
}

/** The attribute, with an empty value read as absent. */
export function optional(el: XmlElement, name: string, max = MAX_TEXT): string | undefined {
  const value = el.attrs[name];
  return value ? bounded(el, name, value, max) : undefined;
}

export function required(el: XmlElement, name: string, max = MAX_TEXT): string {
  const value = el.attrs[name];
  if (value === undefined) throw new CfdiRejection(`falta el atributo ${name} en ${el.name}`);
  return bounded(el, name, value, max);
}

/**
 * A t_FechaH attribute (Comprobante@Fecha, Pago@FechaPago, TimbreFiscalDigital@FechaTimbrado), and a
 * day its month has: the pattern alone lets 2021-02-30 through, which a date type then rolls over
 * into March.
 */
export function fechaH(el: XmlElement, name: string): string {
  const value = required(el, name);
  if (!FECHA_H.test(value)) {
    throw new CfdiRejection(`${name} inválida: "${value.slice(0, 40)}"`);
  }
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const lastDay = new Date(Date.UTC(year, month, 0)); // day 0 of the next month: this one's last
  const days = lastDay.getUTCDate();
  if (Number(value.slice(8, 10)) > days) {
    const mes = lastDay.toLocaleString('es-MX', { month: 'long', timeZone: 'UTC' });
    throw new CfdiRejection(
      `${name} inválida: "${value}" no existe en el calendario (${mes} de ${year} tiene ${days} días)`,
    );
  }
  return value;
}

/** A UUID attribute, upper-cased (the XSD allows lower case). */
export function uuid(el: XmlElement, name: string): string {
  const value = required(el, name).toUpperCase();
  if (!UUID.test(value))
    throw new CfdiRejection(`UUID inválido en ${el.name}@${name}: "${value.slice(0, 40)}"`);
  return value;
}

function bounded(el: XmlElement, name: string, value: string, max: number): string {
  if (value.length > max) {
    throw new CfdiRejection(`${el.name}@${name} excede ${max} caracteres (${value.length})`);
  }
  return value;
}

export function decimal(el: XmlElement, name: string): number {
  return toNumber(el, name, required(el, name), true);
}

export function integer(el: XmlElement, name: string): number {
  return toNumber(el, name, required(el, name), false);
}

export function optionalDecimal(el: XmlElement, name: string): number | undefined {
  const value = optional(el, name);
  return value === undefined ? undefined : toNumber(el, name, value, true);
}

export function optionalInteger(el: XmlElement, name: string): number | undefined {
  const value = optional(el, name);
  return value === undefined ? undefined : toNumber(el, name, value, false);
}

function toNumber(el: XmlElement, name: string, raw: string, fraction: boolean): number {
  // Surrounding whitespace is tolerated; a value that starts and ends with a digit has none.
  const value = isDigit(raw.charCodeAt(0)) && isDigit(raw.charCodeAt(raw.length - 1)) ? raw : raw.trim();
  const n = numeral(value, fraction);
  if (Number.isNaN(n)) {
    throw new CfdiRejection(`valor numérico inválido en ${el.name}@${name}: "${raw.slice(0, 40)}"`);
  }
  const max = fraction ? MAX_AMOUNT : MAX_INTEGER;
  if (n >= max)
    throw new CfdiRejection(
      `valor fuera de rango en ${el.name}@${name}: ${value.slice(0, 40)} (máximo < ${max})`,
    );
  return n;
}

const isDigit = (code: number) => code >= 48 && code <= 57; // NaN (past the end) is not

/**
 * t_Importe and friends: digits with, when `fraction`, an optional `.` and digits (a comma
 * separator is a known bug of some issuers, docs/cfdi.md#reading-a-document); never negative.
 * Their value, or NaN for any other shape. Exactly what Number(value) gives, read in the same pass
 * as the shape (every amount of a document goes through here): up to 15 digits make an exact
 * integer, and one division by an exact power of ten rounds once, as Number does; longer numerals
 * go to Number.
 */
function numeral(value: string, fraction: boolean): number {
  let digits = 0; // the numeral without its point, as an integer
  let i = 0;
  let c = value.charCodeAt(0);
  for (; isDigit(c); c = value.charCodeAt(++i)) digits = digits * 10 + (c - 48);
  if (i === 0) return Number.NaN;
  let decimals = 0;
  if (i < value.length) {
    if (!fraction || c !== 46 /* . */) return Number.NaN;
    const point = i;
    for (c = value.charCodeAt(++i); isDigit(c); c = value.charCodeAt(++i)) digits = digits * 10 + (c - 48);
    decimals = i - point - 1;
    if (i < value.length || decimals === 0) return Number.NaN;
  }
  return value.length - (decimals > 0 ? 1 : 0) <= 15 ? digits / POWERS_OF_TEN[decimals]! : Number(value);
}
const POWERS_OF_TEN = Array.from({ length: 15 }, (_, k) => Number(`1e${k}`)); // each exactly 10^k

/** Optional attributes copied under new keys, omitted (not undefined) when absent or empty. */
export function strings<K extends string>(
  el: XmlElement,
  map: Record<K, string>,
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key in map) {
    const value = optional(el, map[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}
