// The xlsx writer streams with bounded memory: it pulls rows only as fast as the file is compressed and
// read, so a client that stops reading (or goes) stops the rows, and so the keyset pages behind them.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Cell } from '../src/services/exports/columns';
import { type Sheet, xlsxWorkbook } from '../src/services/exports/writers';

const ROWS = 30_000;

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
    // Leave the pipeline time to run ahead of the unread output: it must block on it, a few thousand
    // rows of buffers at most (uncompressed XML used to pile up ahead of the deflater: every row).
    await sleep(300);
    expect(seen.pulled).toBeLessThan(ROWS / 3);
    await reader.cancel();
    for (let i = 0; i < 100 && !seen.closed; i++) await sleep(20);
    expect(seen.closed).toBe(true);
    expect(seen.pulled).toBeLessThan(ROWS / 3);
  });
});
