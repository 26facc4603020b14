import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { downloadOf, filenameOf, safeFilename } from '../src/download';

const dir = mkdtempSync(join(tmpdir(), 'folio-download-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const encoder = new TextEncoder();

/** A body that yields `chunks`, then fails if `failAfter` is set (a connection lost mid-file). */
function body(chunks: string[], failAfter = false): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks[i++];
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (failAfter) controller.error(new TypeError('terminated'));
      else controller.close();
    },
  });
}

describe('file names from Content-Disposition', () => {
  it('prefers the exact UTF-8 name (filename*) and falls back to the quoted one', () => {
    expect(
      filenameOf(
        `attachment; filename="facturas-N&A970701AB1-2025-03.xlsx"; filename*=UTF-8''facturas-%C3%91%26A970701AB1-2025-03.xlsx`,
      ),
    ).toBe('facturas-Ñ&A970701AB1-2025-03.xlsx');
    expect(filenameOf('attachment; filename="a \\"b\\".csv"')).toBe('a "b".csv');
    expect(filenameOf('attachment; filename=plain.pdf')).toBe('plain.pdf');
    expect(filenameOf('attachment')).toBeNull();
    expect(filenameOf(null)).toBeNull();
  });

  it('never names a file outside the folder, a hidden one or an empty one', () => {
    expect(safeFilename('../../etc/passwd', 'x.csv')).toBe('passwd');
    expect(safeFilename('..\\..\\boot.ini', 'x.csv')).toBe('boot.ini');
    expect(safeFilename('.bashrc', 'x.csv')).toBe('bashrc');
    expect(safeFilename('a\nb.csv', 'x.csv')).toBe('a_b.csv');
    expect(safeFilename('..', 'x.csv')).toBe('x.csv');
    const res = new Response('', { headers: { 'content-disposition': 'attachment; filename="../x/.."' } });
    expect(downloadOf(res, 'facturas.csv').filename).toBe('facturas.csv');
  });
});

describe('FolioDownload', () => {
  it('reports progress per chunk with the announced size, and reads the body whole', async () => {
    const seen: unknown[] = [];
    const res = new Response(body(['ab', 'cde']), { headers: { 'content-length': '5' } });
    const file = downloadOf(res, 'x.bin', { onProgress: (p) => seen.push(p) });
    expect(file.size).toBe(5);
    expect(await file.text()).toBe('abcde');
    expect(seen).toEqual([
      { bytes: 0, total: 5 },
      { bytes: 2, total: 5 },
      { bytes: 5, total: 5 },
    ]);
  });

  it('text() keeps the BOM of a csv for the parser to see', async () => {
    const file = downloadOf(new Response(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])), 'x.csv');
    expect(await file.text()).toBe('\uFEFFA');
  });

  it('saveTo() replaces the target only once the whole file is written', async () => {
    const folder = mkdtempSync(join(dir, 'whole-'));
    const target = join(folder, 'whole.csv');
    writeFileSync(target, 'old');
    const saved = await downloadOf(new Response(body(['a,b\r\n', '1,2\r\n'])), 'x.csv').saveTo(target);
    expect(saved).toEqual({ path: target, bytes: 10 });
    expect(readFileSync(target, 'utf8')).toBe('a,b\r\n1,2\r\n');
    expect(readdirSync(folder)).toEqual(['whole.csv']);
  });

  it('saveTo() leaves the target untouched and no temporary file when the body fails midway', async () => {
    const folder = mkdtempSync(join(dir, 'fail-'));
    const target = join(folder, 'marzo.xlsx');
    writeFileSync(target, 'previous export');
    const file = downloadOf(new Response(body(['PK', 'more'], true)), 'x.xlsx');
    await expect(file.saveTo(target)).rejects.toThrow('terminated');
    expect(readdirSync(folder)).toEqual(['marzo.xlsx']);
    expect(readFileSync(target, 'utf8')).toBe('previous export');

    const fresh = join(folder, 'nuevo.xlsx');
    await expect(downloadOf(new Response(body(['PK'], true)), 'x.xlsx').saveTo(fresh)).rejects.toThrow();
    expect(readdirSync(folder)).toEqual(['marzo.xlsx']);
  });
});
