import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/**
 * A downloaded PDF read the way a person's tools read it: Debian's poppler-utils (CI installs it
 * beside Chromium) for the text, the page count and a page image, jsQR for a QR code on that image.
 * Without poppler the PDF tests skip and say so.
 */
export const hasPoppler = ['pdftotext', 'pdftoppm', 'pdfinfo'].every((tool) =>
  existsSync(`/usr/bin/${tool}`),
);

function withFile<T>(pdf: Uint8Array, run: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'folio-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return run(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text in content order (`-raw`: a wrapped table cell stays together), whitespace collapsed. */
export const pdfText = (pdf: Uint8Array): string =>
  withFile(pdf, (file) =>
    execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }),
  )
    .replace(/\s+/g, ' ')
    .trim();

export const pdfPages = (pdf: Uint8Array): number =>
  withFile(pdf, (file) =>
    Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1]),
  );

/** One page rendered at 150 dpi, as PNG bytes. */
export const pageImage = (pdf: Uint8Array, page: number): Buffer =>
  withFile(pdf, (file, dir) => {
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '150',
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      file,
      join(dir, 'page'),
    ]);
    return readFileSync(join(dir, 'page.png'));
  });

/** The text of the QR code on a PNG image, or undefined when none is found. */
export function qrOf(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}
