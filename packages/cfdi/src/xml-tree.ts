// Well-formedness and the element tree, with saxes: a strict XML 1.0 parser (unescaped `&`,
// unclosed tags, two roots, stray text all fail) that never expands DTD entities. Namespaces are
// resolved here rather than by saxes so that an undeclared prefix inside an addenda or an unknown
// complement (common in real files) does not sink a valid CFDI; CFDI nodes still need their
// real namespace to be recognised.

import { SaxesParser } from 'saxes';
import { KEPT_NAMESPACES } from './namespaces';
import { CfdiRejection } from './rejection';

export interface XmlElement {
  ns: string;
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
}

// The namespace bindings in scope, innermost first: an element that declares nothing shares its
// parent's (no copy), and a lookup walks the few declarations a CFDI has.
type Scope = { prefix: string; uri: string; outer: Scope } | undefined;

// CFDI namespaces resolve to the very NS strings, so every later `el.ns === NS.x` compares two
// pointers instead of two 30-character URIs.
const CANONICAL: ReadonlyMap<string, string> = new Map([...KEPT_NAMESPACES].map((uri) => [uri, uri]));

/** The root element (always, whatever its namespace) with only the CFDI-namespaced descendants. */
export function parseXmlTree(text: string): XmlElement {
  const parser = new SaxesParser();
  let root: XmlElement | undefined;
  const open: XmlElement[] = []; // the kept elements open now
  const outer: Scope[] = []; // the scope around each of them
  let scope: Scope;
  let skipping = 0; // depth inside a subtree we do not keep
  // The namespace declarations of the tag being read, added to its scope as its attributes go by:
  // cheaper than walking every element's attributes (a prototype-less object) for a rare find.
  let inner: Scope;

  parser.on('doctype', () => {
    // Refused outright: no billion laughs, no external entities (XXE), no internal subset.
    throw new CfdiRejection('DTD/entidades no permitidas (<!DOCTYPE>)', 'xml_malformed');
  });
  parser.on('attribute', ({ name, value }) => {
    if (skipping > 0 || name.charCodeAt(0) !== 120 /* x */ || !name.startsWith('xmlns')) return;
    const prefix = name.length === 5 ? '' : name.charCodeAt(5) === 58 /* : */ ? name.slice(6) : undefined;
    if (prefix === undefined) return;
    inner = { prefix, uri: CANONICAL.get(value) ?? value, outer: inner ?? scope };
  });
  parser.on('opentag', (tag) => {
    if (skipping > 0) {
      skipping++;
      return;
    }
    const own = inner ?? scope;
    inner = undefined;
    const colon = tag.name.indexOf(':');
    const el: XmlElement = {
      ns: resolve(own, colon < 0 ? '' : tag.name.slice(0, colon)),
      name: colon < 0 ? tag.name : tag.name.slice(colon + 1),
      attrs: tag.attributes,
      children: [],
    };
    const parent = open[open.length - 1];
    if (!parent) root = el;
    // Addenda: issuer-defined content outside the signed document, never read.
    else if (!KEPT_NAMESPACES.has(el.ns) || el.name === 'Addenda') {
      skipping = 1;
      return;
    } else parent.children.push(el);
    open.push(el);
    outer.push(scope);
    scope = own;
    // A root outside the CFDI namespaces is reported by the caller; no need to keep its content.
    if (!parent && !KEPT_NAMESPACES.has(el.ns)) skipping = 1;
  });
  parser.on('closetag', () => {
    if (skipping > 0) skipping--;
    else {
      open.pop();
      scope = outer.pop();
    }
  });

  try {
    parser.write(text).close();
  } catch (err) {
    if (err instanceof CfdiRejection) throw err;
    throw new CfdiRejection(`XML mal formado: ${(err as Error).message}`, 'xml_malformed');
  }
  if (!root) throw new CfdiRejection('XML mal formado: sin elemento raíz', 'xml_malformed');
  return root;
}

/** The URI bound to `prefix` (the last declaration wins), '' when none is. */
function resolve(scope: Scope, prefix: string): string {
  for (let s = scope; s; s = s.outer) if (s.prefix === prefix) return s.uri;
  return '';
}
