// Typed reads of attributes and children of the element tree. A required value that is missing
// or malformed rejects the file, naming the attribute and element.

import { CfdiRejection } from './rejection';
import type { XmlElement } from './xml-tree';

// t_Importe and friends: digits with an optional fraction, `.` only (a comma separator is a
// known bug of some issuers, docs/cfdi.md#reading-a-document), never negative.
const DECIMAL = /^\d+(\.\d+)?$/;
const INTEGER = /^\d+$/;
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

// Loops rather than filter/flatMap: every read of a document goes through these.
export function children(el: XmlElement, ns: string, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (const c of el.children) if (c.ns === ns && c.name === name) found.push(c);
  return found;
}

export function child(el: XmlElement, ns: string, name: string): XmlElement | undefined {
  return el.children.find((c) => c.ns === ns && c.name === name);
}

/** `name` elements inside the `group` children, e.g. Conceptos/Concepto. */
export function grandchildren(el: XmlElement, ns: string, group: string, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (const g of el.children) {
    if (g.ns !== ns || g.name !== group) continue;
    for (const c of g.children) if (c.ns === ns && c.name === name) found.push(c);
  }
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

/** A t_FechaH attribute (Comprobante@Fecha, Pago@FechaPago). */
export function fechaH(el: XmlElement, name: string): string {
  const value = required(el, name);
  if (!FECHA_H.test(value)) {
    throw new CfdiRejection(`${name} inválida: "${value.slice(0, 40)}"`);
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
  return toNumber(el, name, required(el, name), DECIMAL);
}

export function integer(el: XmlElement, name: string): number {
  return toNumber(el, name, required(el, name), INTEGER);
}

export function optionalDecimal(el: XmlElement, name: string): number | undefined {
  const value = optional(el, name);
  return value === undefined ? undefined : toNumber(el, name, value, DECIMAL);
}

export function optionalInteger(el: XmlElement, name: string): number | undefined {
  const value = optional(el, name);
  return value === undefined ? undefined : toNumber(el, name, value, INTEGER);
}

function toNumber(el: XmlElement, name: string, raw: string, shape: RegExp): number {
  const value = raw.trim();
  if (!shape.test(value)) {
    throw new CfdiRejection(`valor numérico inválido en ${el.name}@${name}: "${raw.slice(0, 40)}"`);
  }
  const n = Number(value);
  const max = shape === INTEGER ? MAX_INTEGER : MAX_AMOUNT;
  if (n >= max)
    throw new CfdiRejection(
      `valor fuera de rango en ${el.name}@${name}: ${value.slice(0, 40)} (máximo < ${max})`,
    );
  return n;
}

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
