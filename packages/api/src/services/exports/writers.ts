import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type ExcelJS from 'exceljs';
import type { Cell, Column } from './columns';

/**
 * The file's bytes as they are produced: rows are pulled from `rows` (keyset pages) only as fast as
 * the client reads, so memory holds a page and the writer's buffers, never the whole export. A
 * failure halfway (the answer's status is already sent) aborts the download instead of ending a
 * truncated file cleanly.
 */
export type RowSource<R> = AsyncIterable<R>;

/** What a spreadsheet takes for the start of a formula (or, for tab and CR, of a cell it then reads as one). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell a spreadsheet would run as a formula, made inert with a leading `'` (OWASP, CSV
 * injection): names and descriptions come from whoever issued the CFDI. Only text: a number
 * (a negative amount) is written as the number it is.
 */
export function neutralizeFormula(value: Cell, kind: Column<never>['kind']): Cell {
  return kind === 'text' && typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * CSV: UTF-8 with a BOM (Excel in Spanish then reads the accents right), RFC 4180 quoting, CRLF, and
 * text cells neutralised against formula injection. (The xlsx needs none: its text cells are typed
 * strings, never parsed as formulas.)
 */
export function csvFile<R>(columns: Column<R>[], rows: RowSource<R>, onError: (err: unknown) => void) {
  const out = stringify({
    bom: true,
    header: true,
    record_delimiter: 'windows',
    columns: columns.map((c) => c.header),
  });
  async function* records() {
    for await (const row of rows) yield columns.map((c) => neutralizeFormula(c.value(row), c.kind) ?? '');
  }
  pipeline(Readable.from(records()), out).catch(onError);
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}

/** The CFDI's date-time text (local, no zone) as the Excel date it shows: Excel dates have no zone. */
const excelDate = (text: string) => new Date(text.length === 10 ? `${text}T00:00:00Z` : `${text}Z`);

/** One worksheet: its columns and its rows, already as cells (`sheetOf` makes one from typed rows). */
export interface Sheet {
  name: string;
  columns: Pick<Column<never>, 'header' | 'kind'>[];
  rows: RowSource<Cell[]> | Iterable<Cell[]>;
}

/** A sheet of `columns` over `rows`: each row turned into its cells as it is read. */
export function sheetOf<R>(name: string, columns: Column<R>[], rows: RowSource<R> | Iterable<R>): Sheet {
  async function* cells() {
    for await (const row of rows) yield columns.map((c) => c.value(row));
  }
  return { name, columns, rows: cells() };
}

/** Each kind's cell style, one object for every cell of the kind. */
const STYLES: Record<Column<never>['kind'], Partial<ExcelJS.Style>> = {
  date: { numFmt: 'yyyy-mm-dd hh:mm:ss' },
  number: { numFmt: '#,##0.00####' },
  text: {},
};

/** xlsx through exceljs's streaming writer: numbers and dates as typed cells, header frozen and filtered. */
export function xlsxFile<R>(
  columns: Column<R>[],
  rows: RowSource<R>,
  sheet: string,
  onError: (err: unknown) => void,
) {
  return xlsxWorkbook([sheetOf(sheet, columns, rows)], onError);
}

/** The writable side of a stream from Node or from `readable-stream` 2 (archiver's), which lacks `writableNeedDrain`. */
type ZipEntry = NodeJS.WritableStream & { _writableState: { needDrain: boolean } };

/**
 * Where a sheet's XML waits to be compressed. exceljs's sheet stream (a StreamBuf) passes each 64 KB
 * on to archiver's PassThrough for the sheet's zip entry without heeding back-pressure: its `write()`
 * always answers true. That PassThrough feeds the deflater only as fast as it compresses (and the
 * deflater only as fast as the client reads), so a loop that waits on the output alone lets the
 * uncompressed XML pile up there, growing with the rows (docs/benchmarks.md). Pinned exceljs 4.4.0: if its
 * shape changes, fail loudly rather than stream without a bound.
 */
function zipEntryOf(ws: ExcelJS.Worksheet): ZipEntry {
  const entry = (ws as unknown as { stream: { pipes?: unknown[] } }).stream.pipes?.[0] as
    | ZipEntry
    | undefined;
  if (typeof entry?._writableState?.needDrain !== 'boolean') {
    throw new Error('exceljs: the sheet stream no longer feeds a zip entry to wait on');
  }
  return entry;
}

/** The entry holds more than its high-water mark: the deflater has not caught up with the sheet. */
const zipEntryBehind = (entry: ZipEntry) => entry._writableState.needDrain;

/** Several sheets in one workbook, written one after the other as the client reads. */
export function xlsxWorkbook(sheets: Sheet[], onError: (err: unknown) => void) {
  const out = new PassThrough();
  const gone = new Promise<void>((resolve) => out.once('close', resolve));
  (async () => {
    // Loaded by the first spreadsheet, not at start: exceljs and its zip and XML libraries are tens
    // of MB a server that never exports does not hold (docs/benchmarks.md#memory).
    const { default: Excel } = await import('exceljs');
    const workbook = new Excel.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    for (const sheet of sheets) {
      const { columns } = sheet;
      const ws = workbook.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: 1 }] });
      const styles = columns.map((c) => STYLES[c.kind]);
      ws.columns = columns.map((c, i) => ({
        key: String(i),
        header: c.header,
        width: c.kind === 'text' ? 24 : c.kind === 'date' ? 20 : 14,
        style: styles[i],
      }));
      ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
      const entry = zipEntryOf(ws);
      for await (const row of sheet.rows) {
        const added = ws.addRow(
          row.map((v, i) =>
            columns[i]!.kind === 'date' && typeof v === 'string' ? excelDate(v) : (v ?? null),
          ),
        );
        // Each cell gets a copy of its column's style, which exceljs then renders to XML to find its
        // index; the column's own object it finds in a WeakMap (a quarter of the writer's CPU).
        added.eachCell({ includeEmpty: true }, (cell, n) => {
          cell.style = styles[n - 1]!;
        });
        added.commit();
        // Wait while the deflater (and so the client behind it) is behind, and stop reading pages
        // once the client has gone (a download cancelled halfway).
        if (zipEntryBehind(entry)) await Promise.race([once(entry, 'drain'), gone]);
        if (out.destroyed) return;
      }
      ws.commit();
    }
    await workbook.commit();
  })().catch((err) => {
    out.destroy(err);
    onError(err);
  });
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}
