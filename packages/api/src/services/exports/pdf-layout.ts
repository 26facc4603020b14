import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import { breakLongWords } from './pdf-words';

/**
 * What every PDF Folio draws shares (the CFDI's printed representation, the reports): pdfkit on a US
 * Letter page (the paper Mexican offices print on) with embedded fonts, a cursor that starts new
 * pages, tables whose header repeats on every page they continue on, and "Página X de N" footers.
 */

// DejaVu (Bitstream Vera licence: free to embed and redistribute) covers Spanish entirely; the
// condensed face fits wide tables, the mono face keeps the seals' base64 legible. Loaded from the
// registry package (never a system font path) and parsed once per process: fontkit decoding the
// font tables was most of a document's CPU time when every document parsed them again. Each
// document still embeds only the glyphs it uses.
const fontFile = (name: string) =>
  readFileSync(createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${name}.ttf`));
let fonts: { regular: fontkit.Font; bold: fontkit.Font; mono: fontkit.Font } | undefined;
const font = (name: string) => fontkit.create(fontFile(name)) as fontkit.Font;
const loadFonts = () =>
  (fonts ??= {
    regular: font('DejaVuSansCondensed'),
    bold: font('DejaVuSansCondensed-Bold'),
    mono: font('DejaVuSansMono'),
  });

export const PAGE = { width: 612, height: 792, margin: 36 };
export const LEFT = PAGE.margin;
export const WIDTH = PAGE.width - 2 * PAGE.margin;
/** Content stops here; the footer (page numbers) lives below. */
const BOTTOM = PAGE.height - PAGE.margin - 14;
export const GREY = '#555555';
export const LINE = '#bbbbbb';
const SHADE = '#eeeeee';

export type Doc = PDFKit.PDFDocument;
export type Face = 'regular' | 'bold' | 'mono';

/** `text` as it will be laid out in a box `width` points wide: its overlong words already broken (pdf-words.ts). */
export const fitted = (text: string, face: Face, size: number, width: number) =>
  breakLongWords(text, loadFonts()[face], size, width);

/** A new document with the fonts registered as `regular`, `bold` and `mono`; `done` holds its bytes. */
export function newPdf(info: PDFKit.DocumentInfo): { doc: Doc; done: Promise<Buffer> } {
  const f = loadFonts();
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: PAGE.margin,
    bufferPages: true,
    // pdfkit takes a parsed fontkit font where it takes a path; its default (Helvetica) is never loaded.
    font: f.regular as unknown as string,
    info,
  });
  for (const [name, parsed] of Object.entries(f)) doc.registerFont(name, parsed as unknown as string);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

export interface Column {
  header: string;
  width: number;
  align?: 'left' | 'right';
}

/** A cursor over the pages: `room(h)` starts a new page (and calls `onNewPage`) when h does not fit. */
export class Flow {
  y = PAGE.margin;
  onNewPage: (() => void) | undefined;
  constructor(readonly doc: Doc) {}
  room(height: number) {
    if (this.y + height <= BOTTOM) return;
    this.doc.addPage();
    this.y = PAGE.margin;
    this.onNewPage?.();
  }
}

/** A row's cells with their overlong words broken to the column widths. */
const fitRow = (columns: Column[], cells: string[], face: Face, size: number) =>
  columns.map((c, i) => fitted(cells[i] ?? '', face, size, c.width - 4));

/** A table row (already fitted): each cell's lines wrapped to its width; returns the row's height. */
function rowHeight(doc: Doc, columns: Column[], cells: string[], size: number): number {
  doc.fontSize(size);
  return Math.max(...columns.map((c, i) => doc.heightOfString(cells[i]!, { width: c.width - 4 })));
}

function drawRow(
  flow: Flow,
  columns: Column[],
  cells: string[],
  opts: { size: number; bold?: boolean; shade?: boolean },
) {
  const { doc } = flow;
  doc.font(opts.bold ? 'bold' : 'regular');
  cells = fitRow(columns, cells, opts.bold ? 'bold' : 'regular', opts.size);
  const height = rowHeight(doc, columns, cells, opts.size) + 4;
  flow.room(height);
  if (opts.shade) doc.rect(LEFT, flow.y, WIDTH, height).fill(SHADE);
  doc
    .font(opts.bold ? 'bold' : 'regular')
    .fontSize(opts.size)
    .fillColor('black');
  let x = LEFT;
  columns.forEach((c, i) => {
    doc.text(cells[i]!, x + 2, flow.y + 2, { width: c.width - 4, align: c.align ?? 'left' });
    x += c.width;
  });
  flow.y += height;
  doc
    .moveTo(LEFT, flow.y)
    .lineTo(LEFT + WIDTH, flow.y)
    .lineWidth(0.5)
    .strokeColor(LINE)
    .stroke();
}

/**
 * A table whose header row is drawn again at the top of every page it continues on. Drawn in one go:
 * documents are laid out in a worker thread (pdf-pool.ts), never on the server's event loop.
 */
export function drawTable(flow: Flow, columns: Column[], rows: string[][], size = 7) {
  const headers = columns.map((c) => c.header);
  const header = () => drawRow(flow, columns, headers, { size, bold: true, shade: true });
  // Keep the header with at least the first row.
  flow.doc.font('bold');
  const headerHeight = rowHeight(flow.doc, columns, fitRow(columns, headers, 'bold', size), size);
  flow.doc.font('regular');
  const firstHeight = rows[0]
    ? rowHeight(flow.doc, columns, fitRow(columns, rows[0], 'regular', size), size)
    : 0;
  flow.room(headerHeight + firstHeight + 8);
  header();
  const outer = flow.onNewPage;
  flow.onNewPage = () => {
    outer?.();
    header();
  };
  for (const row of rows) drawRow(flow, columns, row, { size });
  flow.onNewPage = outer;
}

/** A full-width black rule between the document's parts. */
export function rule(flow: Flow) {
  flow.doc
    .moveTo(LEFT, flow.y)
    .lineTo(LEFT + WIDTH, flow.y)
    .lineWidth(1)
    .strokeColor('black')
    .stroke();
  flow.y += 6;
}

/** `text` at the foot of every page, with "Página X de N" on its right. */
export function drawFooters(doc: Doc, text: string) {
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const margins = doc.page.margins;
    doc.page.margins = { ...margins, bottom: 0 }; // writing below the content area must not add a page
    const y = PAGE.height - PAGE.margin - 8;
    doc.font('regular').fontSize(7).fillColor(GREY);
    doc.text(text, LEFT, y, { width: WIDTH * 0.8, lineBreak: false });
    doc.text(`Página ${i + 1} de ${range.count}`, LEFT + WIDTH * 0.8, y, {
      width: WIDTH * 0.2,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins = margins;
  }
}

/** A titled block of "label: value" pairs in two columns. */
export function drawFields(flow: Flow, title: string, pairs: [string, string | undefined][]) {
  const { doc } = flow;
  const half = WIDTH / 2;
  const shown = pairs
    .filter((p): p is [string, string] => !!p[1])
    .map(([k, v]): [string, string] => [k, fitted(v, 'regular', 8, half - 8)]);
  const lines: [string, string][][] = [];
  for (let i = 0; i < shown.length; i += 2) lines.push(shown.slice(i, i + 2));
  // Measured in the bold face (the label's, wider than the value's): a line never overlaps the next.
  doc.font('bold').fontSize(8);
  const heights = lines.map((l) =>
    Math.max(...l.map(([k, v]) => doc.heightOfString(`${k}: ${v}`, { width: half - 8 }))),
  );
  flow.room(14 + (heights[0] ?? 0));
  doc.font('bold').fontSize(9).fillColor('black').text(title, LEFT, flow.y);
  flow.y += 12;
  lines.forEach((line, i) => {
    flow.room(heights[i]! + 2);
    line.forEach(([label, value], j) => {
      doc
        .font('bold')
        .fontSize(8)
        .fillColor(GREY)
        .text(`${label}: `, LEFT + j * half, flow.y, { width: half - 8, continued: true })
        .font('regular')
        .fillColor('black')
        .text(value);
    });
    flow.y += heights[i]! + 2;
  });
  flow.y += 6;
}

/** A small bold title and its table (skipped when there are no rows). */
export function drawTitledTable(flow: Flow, title: string, columns: Column[], rows: string[][]) {
  if (!rows.length) return;
  flow.room(30);
  flow.doc.font('bold').fontSize(8).fillColor('black').text(title, LEFT, flow.y);
  flow.y += 11;
  drawTable(flow, columns, rows);
  flow.y += 6;
}
