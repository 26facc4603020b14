import type { Cell } from '../exports/columns';
import type { Sheet } from '../exports/writers';

// What a report's PDF is made of before it is drawn, apart from the drawing (pdf.ts, in a worker
// thread): the request path builds it without loading pdfkit and its fonts (docs/benchmarks.md#memory).

export const MESES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

/** A workbook sheet with its rows read (`printedSheets`): what a worker thread can be sent. */
export interface PrintedSheet {
  name: string;
  columns: Sheet['columns'];
  rows: Cell[][];
}

/** The sheets with their rows read: a report's sections are a few dozen rows. */
export async function printedSheets(sheets: Sheet[]): Promise<PrintedSheet[]> {
  const out: PrintedSheet[] = [];
  for (const { name, columns, rows: source } of sheets) {
    const rows: Cell[][] = [];
    for await (const row of source) rows.push(row);
    out.push({ name, columns: columns.map(({ header, kind }) => ({ header, kind })), rows });
  }
  return out;
}
