import { inflateRawSync } from 'node:zlib';
import { type ImportFile, MAX_CFDI_BYTES, XML_TOO_LARGE } from '@folio/api';
import yauzl from 'yauzl';

export const MAX_ZIP_BYTES = 50 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 5000;

/** A ZIP refused as a whole, before anything in it is stored. */
export class ZipRefused extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

const open = (buf: Buffer) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(
      buf,
      { lazyEntries: true, validateEntrySizes: true, strictFileNames: false },
      (err, zip) => (err ? reject(err) : resolve(zip)),
    ),
  );

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const settle = (fn: () => void) => {
      zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
      fn();
    };
    const onEntry = (e: yauzl.Entry) => settle(() => resolve(e));
    const onEnd = () => settle(() => resolve(null));
    const onError = (err: Error) => settle(() => reject(err));
    zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zip.readEntry();
  });
}

/** Walks the central directory (nothing is inflated); yauzl refuses absolute and `..` names. */
async function* entries(buf: Buffer): AsyncGenerator<{ zip: yauzl.ZipFile; entry: yauzl.Entry }> {
  const zip = await open(buf);
  try {
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) yield { zip, entry };
  } finally {
    zip.close();
  }
}

const isJunk = (path: string) =>
  path.endsWith('/') || path.startsWith('__MACOSX/') || /(^|\/)\.[^/]*$/.test(path);

/** The entries an upload reads from its ZIPs: their extension, their size limit, and any to leave out. */
export interface EntryKind {
  ext: string;
  maxBytes: number;
  tooLarge: string;
  /** The error of an entry of another type. */
  wrongType: string;
  /** Why an entry is left out on purpose (not an error), if it is. */
  skip?: (fileName: string) => string | undefined;
}

/** A CFDI upload's: XML documents up to MAX_CFDI_BYTES. */
export const XML_ENTRIES: EntryKind = {
  ext: '.xml',
  maxBytes: MAX_CFDI_BYTES,
  tooLarge: XML_TOO_LARGE,
  wrongType: 'not an .xml file',
};

/** Entries `zipEntries` reads; the others are reported without inflating them. */
const inflates = (entry: yauzl.Entry, kind: EntryKind) =>
  entry.fileName.toLowerCase().endsWith(kind.ext) &&
  entry.uncompressedSize <= kind.maxBytes &&
  !entry.isEncrypted() &&
  !kind.skip?.(entry.fileName);

/**
 * Checks size, entry count and names before any entry is read, so a refused ZIP stores nothing.
 * Returns the files it would yield and their declared inflated size (reading stops at the
 * declared size, so that is an upper bound).
 */
export async function checkZip(
  name: string,
  buf: Buffer,
  kind: EntryKind = XML_ENTRIES,
): Promise<{ files: number; bytes: number }> {
  if (buf.byteLength > MAX_ZIP_BYTES) throw new ZipRefused(413, `${name}: a ZIP may hold at most 50 MB`);
  let count = 0;
  const yielded = { files: 0, bytes: 0 };
  try {
    for await (const { entry } of entries(buf)) {
      if (++count > MAX_ZIP_ENTRIES)
        throw new ZipRefused(413, `${name}: a ZIP may hold at most ${MAX_ZIP_ENTRIES} entries`);
      if (isJunk(entry.fileName)) continue;
      yielded.files++;
      if (inflates(entry, kind)) yielded.bytes += entry.uncompressedSize;
    }
    return yielded;
  } catch (err) {
    if (err instanceof ZipRefused) throw err;
    throw new ZipRefused(400, `${name}: not a readable ZIP (${(err as Error).message})`);
  }
}

/**
 * An entry's bytes, inflated in one call: a zlib stream per entry cost more than parsing the CFDI in
 * it. Never past the size the entry declares (already at most MAX_CFDI_BYTES): an entry that
 * inflates to more, or to less, is refused, as yauzl's `validateEntrySizes` does.
 */
async function readEntry(zip: yauzl.ZipFile, buf: Buffer, entry: yauzl.Entry): Promise<Buffer> {
  const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
  const data = buf.subarray(fileDataStart, fileDataStart + entry.compressedSize);
  let bytes: Buffer;
  if (entry.compressionMethod === 0) bytes = data;
  else if (entry.compressionMethod === 8)
    bytes = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
  else throw new Error(`unsupported compression method: ${entry.compressionMethod}`);
  if (bytes.byteLength !== entry.uncompressedSize)
    throw new Error(`expected ${entry.uncompressedSize} bytes, got ${bytes.byteLength}`);
  return bytes;
}

/**
 * The files of a checked ZIP, inflated one at a time (memory stays bounded by one entry). Entries
 * that cannot be read come back with `error`, those left out on purpose with `skipped`, so the
 * report names them.
 */
export async function* zipEntries(
  zipName: string,
  buf: Buffer,
  kind: EntryKind,
): AsyncGenerator<ImportFile & { skipped?: string }> {
  for await (const { zip, entry } of entries(buf)) {
    const name = `${zipName}/${entry.fileName}`;
    if (isJunk(entry.fileName)) continue;
    const skipped = kind.skip?.(entry.fileName);
    if (skipped) {
      yield { name, content: '', skipped };
    } else if (!entry.fileName.toLowerCase().endsWith(kind.ext)) {
      yield { name, content: '', error: kind.wrongType, code: 'file_type_unsupported' };
    } else if (entry.uncompressedSize > kind.maxBytes) {
      yield { name, content: '', error: kind.tooLarge, code: 'file_too_large' };
    } else if (entry.isEncrypted()) {
      yield {
        name,
        content: '',
        error: 'encrypted ZIP entries are not supported',
        code: 'zip_entry_unreadable',
      };
    } else {
      try {
        yield { name, content: await readEntry(zip, buf, entry) };
      } catch (err) {
        yield {
          name,
          content: '',
          error: `unreadable ZIP entry: ${(err as Error).message}`,
          code: 'zip_entry_unreadable',
        };
      }
    }
  }
}

/** The XML documents of a checked ZIP (a CFDI upload's). */
export const xmlEntries = (zipName: string, buf: Buffer) => zipEntries(zipName, buf, XML_ENTRIES);
