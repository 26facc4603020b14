// Issue 25: pdfkit's line wrapper splits a word wider than its box by measuring slice after slice
// of it, and its font caches the layout of every slice: quadratic in the word's length (a CFDI of
// 500 concepts of 1,000 characters without a break point took the server past 1.8 GB). Such words
// are cut into pieces of one line before layout (services/exports/pdf-words.ts).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { type Doc, drawTable, Flow, newPdf } from '../src/services/exports/pdf-layout';
import { breakLongWords } from '../src/services/exports/pdf-words';

const regular = fontkit.create(
  readFileSync(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf')),
) as fontkit.Font;

/** A word without a break point, of `n` characters of varied widths (W is the widest letter). */
const word = (n: number) => 'WiÑ&m0'.repeat(Math.ceil(n / 6)).slice(0, n);

/** Characters held by the layout caches of the document's fonts. */
function cachedChars(doc: Doc): number {
  const fonts = Object.values((doc as unknown as { _fontFamilies: object })._fontFamilies);
  return fonts.reduce(
    (sum: number, f: { layoutCache?: object }) => sum + Object.keys(f.layoutCache ?? {}).join('').length,
    0,
  );
}

describe('words wider than their box are broken before layout', () => {
  it('a 1,000-character word becomes lines that each fit the box, its characters kept in order', () => {
    const { doc } = newPdf({});
    const w = word(1000);
    const lines = breakLongWords(w, regular, 7, 186).split('\n');
    expect(lines.join('')).toBe(w);
    doc.font('regular').fontSize(7);
    for (const line of lines) expect(doc.widthOfString(line)).toBeLessThanOrEqual(186);
    // Lines are full: all but the last take more than three quarters of the box.
    for (const line of lines.slice(0, -1)) expect(doc.widthOfString(line)).toBeGreaterThan(186 * 0.75);
    doc.end();
  });

  it('words that fit are left alone, and so are the spaces between words', () => {
    const text = 'Servicio de consultoría — año 2025, pieza “Ñuñoa” & ajuste';
    expect(breakLongWords(text, regular, 7, 186)).toBe(text);
    const long = word(300);
    expect(breakLongWords(`Antes ${long} después`, regular, 7, 186).replace(/\n/g, '')).toBe(
      `Antes ${long} después`,
    );
  });

  it('a table cell of a 1,000-character word leaves pdfkit’s layout cache linear in the text, not quadratic', () => {
    const { doc } = newPdf({});
    const flow = new Flow(doc);
    const w = word(1000);
    drawTable(flow, [{ header: 'Descripción', width: 190 }], [[w], [`${w.slice(1)}x`]]);
    // Two 1,000-character cells: the pieces and a few headers are all the cache should hold. pdfkit
    // left alone caches every slice it measured of each word it splits: 26,530 characters here, and
    // more than proportionally so for longer words.
    expect(cachedChars(doc)).toBeLessThan(3 * 2_000);
    doc.end();
  });

  it('a DIOT-like table of 200 suppliers with 254-character names: the cache stays linear in the names', () => {
    const { doc } = newPdf({});
    const flow = new Flow(doc);
    // The DIOT PDF's name column among a dozen amounts: about 78 points at 6.5 points.
    // Each name different (the cache shares equal slices): pseudo-random letters seeded by the row.
    const names = Array.from({ length: 200 }, (_, i) => {
      let x = i + 1;
      return Array.from({ length: 254 }, () => {
        x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
        return String.fromCharCode(65 + (x % 26));
      }).join('');
    });
    drawTable(
      flow,
      [
        { header: 'Proveedor', width: 78 },
        { header: 'Base 16 %', width: 60, align: 'right' },
      ],
      names.map((n) => [n, '1,000.00']),
      6.5,
    );
    // About twice the names here; pdfkit left alone: over ten times (515,054 characters).
    expect(cachedChars(doc)).toBeLessThan(3 * 200 * 254);
    doc.end();
  });
});
