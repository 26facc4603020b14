// Typed reads of attributes and children of the element tree. A required value that is missing
// or malformed rejects the file, naming the attribute and element.

import { CfdiRejection } from './rejection';
import type { XmlElement } from './xml-tree';

// t_Importe and friends: digits with an optional fraction, `.` only (a comma separator is a
// known bug of some issuers, docs/cfdi.md#reading-a-document), never negative.
const DECIMAL = /^\d+(\.\d+)?$/;
const INTEGER = /^\d+$/;

export function children(el: XmlElement, ns: string, name: string): XmlElement[] {
  return el.children.filter((c) => c.ns === ns && c.name === name);
}

export function child(el: XmlElement, ns: string, name: string): XmlElement | undefined {
  return el.children.find((c) => c.ns === ns && c.name === name);
}

/** `name` elements inside the `group` children, e.g. Conceptos/Concepto. */
export function grandchildren(el: XmlElement, ns: string, group: string, name: string): XmlElement[] {
  return children(el, ns, group).flatMap((g) => children(g, ns, name));
}

export function requiredChild(el: XmlElement, ns: string, name: string): XmlElement {
  const found = child(el, ns, name);
  if (!found) throw new CfdiRejection(`falta el nodo ${name} en ${el.name}`);
  return found;
}

/** The attribute, with an empty value read as absent. */
export function optional(el: XmlElement, name: string): string | undefined {
  return el.attrs[name] || undefined;
}

export function required(el: XmlElement, name: string): string {
  const value = el.attrs[name];
  if (value === undefined) throw new CfdiRejection(`falta el atributo ${name} en ${el.name}`);
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
  if (!shape.test(value)) throw new CfdiRejection(`valor numérico inválido en ${el.name}@${name}: "${raw}"`);
  return Number(value);
}
