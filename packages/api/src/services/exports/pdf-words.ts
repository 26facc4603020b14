import type * as fontkit from 'fontkit';

/**
 * Words wider than the box they are drawn in, cut into pieces of at most one line each, before
 * pdfkit lays them out. pdfkit's line wrapper splits an overlong word itself by measuring slice
 * after slice of it, and its font keeps the layout of every slice measured: for a 1,000-character
 * word without a break point that is quadratic in time and memory (issue 25: 500 such concepts
 * took the server past 1.8 GB). Measured here glyph by glyph (one pass, nothing cached but the
 * glyphs), every piece then fits and pdfkit meets only words it can place whole.
 */

/** Leaves room for kerning, which the glyph-by-glyph sum does not see. */
const SLACK = 0.97;

/** `text` with every word wider than `width` points (at `size` in `font`) broken into lines that fit. */
export function breakLongWords(text: string, font: fontkit.Font, size: number, width: number): string {
  // No glyph of Folio's faces is wider than its size (1 em): a word this short always fits.
  const fits = Math.floor(width / size);
  if (text.length <= fits) return text;
  const room = (width * SLACK * font.unitsPerEm) / size;
  return text.replace(/\S+/g, (word) => (word.length <= fits ? word : pieces(word, font, room).join('\n')));
}

/** `word` cut before each character that would take a piece past `room` (font units). */
function pieces(word: string, font: fontkit.Font, room: number): string[] {
  const out: string[] = [];
  let piece = '';
  let used = 0;
  for (const ch of word) {
    const advance = font.glyphForCodePoint(ch.codePointAt(0)!).advanceWidth;
    if (piece && used + advance > room) {
      out.push(piece);
      piece = '';
      used = 0;
    }
    piece += ch;
    used += advance;
  }
  if (piece) out.push(piece);
  return out;
}
