import type { Element, Node } from '@nodecfdi/cfdi-core';

// Exclusive XML canonicalization (xml-exc-c14n, without comments and without an InclusiveNamespaces
// list) of one element, as the simulator needs it to check SAT-style signatures: each element
// declares the namespaces it and its attributes visibly use, unless an output ancestor already did;
// attributes sorted; empty elements as start-end pairs; SAT's messages carry nothing else (no
// comments, no processing instructions, no whitespace between tags).

const XMLNS = 'http://www.w3.org/2000/xmlns/';
const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;

const escapeText = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('\r', '&#xD;');
const escapeAttr = (s: string) =>
  s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('"', '&quot;')
    .replaceAll('\t', '&#x9;')
    .replaceAll('\n', '&#xA;')
    .replaceAll('\r', '&#xD;');

export function canonicalize(
  element: Element,
  rendered: ReadonlyMap<string, string> = new Map([['', '']]),
): string {
  const scope = new Map(rendered);
  const declare: Array<[string, string]> = [];
  const use = (prefix: string, uri: string) => {
    if (prefix === 'xml') return;
    if (scope.get(prefix) !== uri) {
      scope.set(prefix, uri);
      declare.push([prefix, uri]);
    }
  };
  use(element.prefix ?? '', element.namespaceURI ?? '');
  const attributes: Array<{ uri: string; local: string; text: string }> = [];
  for (let i = 0; i < element.attributes.length; i++) {
    const a = element.attributes.item(i);
    if (!a || a.namespaceURI === XMLNS) continue;
    if (a.prefix) use(a.prefix, a.namespaceURI ?? '');
    attributes.push({
      uri: a.namespaceURI ?? '',
      local: a.localName ?? a.name,
      text: `${a.name}="${escapeAttr(a.value)}"`,
    });
  }
  declare.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  attributes.sort((a, b) => (a.uri === b.uri ? (a.local < b.local ? -1 : 1) : a.uri < b.uri ? -1 : 1));
  const head = [
    element.tagName,
    ...declare.map(([p, uri]) => `${p ? `xmlns:${p}` : 'xmlns'}="${escapeAttr(uri)}"`),
    ...attributes.map((a) => a.text),
  ].join(' ');
  let body = '';
  for (let child: Node | null = element.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === ELEMENT) body += canonicalize(child as Element, scope);
    else if (child.nodeType === TEXT || child.nodeType === CDATA) body += escapeText(child.nodeValue ?? '');
  }
  return `<${head}>${body}</${element.tagName}>`;
}
