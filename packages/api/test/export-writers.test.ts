// The xlsx writer streams with bounded memory: it pulls rows only as fast as the file is compressed and
// read, so a client that stops reading (or goes) stops the rows, and so the keyset pages behind them.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Cell } from '../src/services/exports/columns';
import { csvFile, type Sheet, xlsxWorkbook } from '../src/services/exports/writers';

const ROWS = 200_000;

/** A sheet of ROWS varied rows (text, a date, amounts) that counts how many were pulled, and knows when it was closed. */
function countedSheet() {
  const seen = { pulled: 0, closed: false };
  const columns: Sheet['columns'] = [
    { header: 'UUID', kind: 'text' },
    { header: 'Fecha', kind: 'date' },
    { header: 'Nombre', kind: 'text' },
    { header: 'Total', kind: 'number' },
  ];
  function* rows(): Generator<Cell[]> {
    try {
      for (let i = 0; i < ROWS; i++) {
        seen.pulled++;
        yield [crypto.randomUUID(), '2025-03-10T09:15:00', `Cliente ${i * 7919} Ñandú & Hijos`, i * 1.37];
      }
    } finally {
      seen.closed = true;
    }
  }
  return { sheet: { name: 'facturas', columns, rows: rows() }, seen };
}

describe('xlsx streamed with bounded memory', () => {
  it('a client that stops reading stops the rows (the sheet waits for the deflater, not only for the output); cancelling ends them', async () => {
    const { sheet, seen } = countedSheet();
    const reader = xlsxWorkbook([sheet], (err) => {
      throw err;
    }).getReader();
    expect((await reader.read()).done).toBe(false);
    // Let the pipeline run ahead of the unread output until it stands still: it must block on it with
    // the buffers' worth of rows (about 40,000 of these, compressed into a few MB) where uncompressed
    // XML used to pile up ahead of the deflater for every row. Waiting for the standstill rather than
    // a fixed time keeps the figure independent of the machine's load.
    for (let last = -1, i = 0; i < 200 && seen.pulled !== last; i++) {
      last = seen.pulled;
      await sleep(100);
    }
    expect(seen.pulled).toBeLessThan(ROWS / 2);
    await reader.cancel();
    for (let i = 0; i < 100 && !seen.closed; i++) await sleep(20);
    expect(seen.closed).toBe(true);
    expect(seen.pulled).toBeLessThan(ROWS / 2);
  });
});

describe('xlsx cell formats', () => {
  it('dates and amounts keep their column formats in every row, an empty amount too; text has none', async () => {
    const columns: Sheet['columns'] = [
      { header: 'Nombre', kind: 'text' },
      { header: 'Fecha', kind: 'date' },
      { header: 'Total', kind: 'number' },
    ];
    const rows: Cell[][] = [
      ['Ana', '2025-03-10T09:15:00', 1160],
      ['Luis', '2025-03-11', null],
    ];
    const bytes = await new Response(
      xlsxWorkbook([{ name: 'facturas', columns, rows }], (err) => {
        throw err;
      }),
    ).arrayBuffer();
    const { default: Excel } = await import('exceljs');
    const book = new Excel.Workbook();
    await book.xlsx.load(bytes);
    const ws = book.getWorksheet('facturas')!;
    const formats = [2, 3].map((r) => [1, 2, 3].map((c) => ws.getCell(r, c).numFmt ?? null));
    expect(formats).toEqual([
      [null, 'yyyy-mm-dd hh:mm:ss', '#,##0.00####'],
      [null, 'yyyy-mm-dd hh:mm:ss', '#,##0.00####'],
    ]);
    expect(ws.getCell(2, 3).value).toBe(1160);
  });
});

describe('CSV formula injection (OWASP)', () => {
  async function csvOf(rows: Cell[][]) {
    const columns = [
      { header: 'Nombre', kind: 'text' as const, value: (r: Cell[]) => r[0] },
      { header: 'Saldo', kind: 'number' as const, value: (r: Cell[]) => r[1] },
    ];
    const file = csvFile(
      columns,
      (async function* () {
        yield* rows;
      })(),
      (err) => {
        throw err;
      },
    );
    return (await new Response(file).text()).replace(/^\uFEFF/, '');
  }

  it('text cells starting with =, +, -, @, tab or CR get a leading quote; numbers, negative ones too, are left as numbers', async () => {
    const csv = await csvOf([
      ['=1+1', -5],
      ['+1', -0.5],
      ['-1', 0],
      ['@A1', 3],
      ['\tx', null],
      ['\rx', null],
      ['a=b', null],
    ]);
    expect(csv.split('\r\n')).toEqual([
      'Nombre,Saldo',
      "'=1+1,-5",
      "'+1,-0.5",
      "'-1,0",
      "'@A1,3",
      "'\tx,",
      "'\rx,",
      'a=b,',
      '',
    ]);
  });
});
