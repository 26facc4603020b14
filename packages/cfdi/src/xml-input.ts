// Turns an upload (bytes or text) into the XML text to parse: size cap, UTF-8 only, BOM and the
// stray text that real files carry before the first `<` or after the last `>` removed
// (docs/cfdi.md#reading-a-document; none of this touches signed content).

import { CfdiRejection } from './rejection';

/** The size limit of one CFDI document, wherever it arrives (body, multipart file, ZIP entry, tRPC). */
export const MAX_CFDI_BYTES = 5 * 1024 * 1024;
/** The one message for a document over MAX_CFDI_BYTES, with the code `file_too_large` (413 for a body). */
export const XML_TOO_LARGE = `XML exceeds ${MAX_CFDI_BYTES / (1024 * 1024)} MB`;

export type XmlText = { text: string; repairs: string[] };

const utf8 = new TextDecoder('utf-8', { fatal: true });
// Enough of the file to read the XML declaration, decoded byte-for-byte.
const latin1 = new TextDecoder('latin1');
const DECLARED_ENCODING = /<\?xml\s[^>]*?encoding\s*=\s*["']([^"']*)["']/;

export function toXmlText(input: string | Uint8Array): XmlText {
  if (typeof input !== 'string') return fromBytes(input);
  const text = checkedText(input);
  return trimJunk(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

// The XML, from the first `<` to the last `>`, is decoded on its own rather than sliced out of the
// decoded file: saxes then reads a flat string (every character read from a slice costs an
// indirection). `<` and `>` are ASCII, never inside a multi-byte sequence, so the three parts are
// valid UTF-8 exactly when the whole file is, and decode to the same characters.
function fromBytes(bytes: Uint8Array): XmlText {
  tooLarge(bytes.byteLength);
  rejectDeclaredEncoding(latin1.decode(bytes.subarray(0, 1024)));
  const start = bytes.indexOf(0x3c /* < */);
  const end = bytes.lastIndexOf(0x3e /* > */) + 1;
  if (start < 0 || end <= start) {
    decode(bytes);
    throw noXml();
  }
  const text = decode(bytes.subarray(start, end));
  return { text, repairs: repairs(isJunk(bytes, 0, start), isJunk(bytes, end, bytes.length)) };
}

/** Whether bytes[from, to) hold more than whitespace; XML whitespace alone is told without decoding. */
function isJunk(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09)
      return decode(bytes.subarray(from, to)).trim() !== '';
  }
  return false;
}

function decode(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes); // also drops a leading EF BB BF
  } catch {
    throw new CfdiRejection('codificación inválida: el archivo no es UTF-8 válido', 'encoding_unsupported');
  }
}

function checkedText(text: string): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes: only count bytes when the length alone cannot decide.
  if (text.length * 3 > MAX_CFDI_BYTES)
    tooLarge(text.length > MAX_CFDI_BYTES ? text.length : utf8Length(text));
  rejectDeclaredEncoding(text.slice(0, 1024));
  return text;
}

/**
 * The check for documents no transport measured before reading them: tRPC's JSON strings and
 * callers that skip HTTP (scripts, the service called directly). REST uploads are refused before
 * this, unread (apps/api/src/http/uploads/cfdi-upload.ts), with the same message and code.
 */
function tooLarge(bytes: number): void {
  if (bytes > MAX_CFDI_BYTES) throw new CfdiRejection(XML_TOO_LARGE, 'file_too_large');
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

// CFDI must be UTF-8 (Anexo 20). A file declaring another encoding is refused rather than
// transcoded: it never passed a PAC, and guessing is how accents got corrupted in other tools.
function rejectDeclaredEncoding(head: string): void {
  const declared = DECLARED_ENCODING.exec(head)?.[1];
  if (declared !== undefined && !/^utf-?8$/i.test(declared)) {
    throw new CfdiRejection(
      `codificación no soportada: ${declared} (un CFDI debe estar en UTF-8)`,
      'encoding_unsupported',
    );
  }
}

function trimJunk(text: string): XmlText {
  const start = text.indexOf('<');
  const end = text.lastIndexOf('>') + 1;
  if (start < 0 || end <= start) throw noXml();
  return {
    text: start === 0 && end === text.length ? text : text.slice(start, end),
    repairs: repairs(text.slice(0, start).trim() !== '', text.slice(end).trim() !== ''),
  };
}

const noXml = () => new CfdiRejection('XML mal formado: el archivo no contiene XML', 'xml_malformed');

function repairs(before: boolean, after: boolean): string[] {
  const done: string[] = [];
  if (before) done.push('se ignoró texto antes del inicio del XML');
  if (after) done.push('se ignoró texto después del final del XML');
  return done;
}
