import { inflateRawSync } from 'node:zlib';
import type { ImportFile } from '@folio/api';
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

const isJunk = (path: string) =>
  path.endsWith('/') || path.startsWith('__MACOSX/') || /(^|\/)\.[^/]*$/.test(path);

/**
 * The files an upload takes, alone or in its ZIPs: their extension, their size limit (checked here,
 * before a file is read) and its message, and any to leave out.
 */
export interface EntryKind {
  ext: string;
  maxBytes: number;
  tooLarge: string;
  /** The error of a ZIP entry of another type. */
  wrongType: string;
  /** The error of an uploaded file that is neither `ext` nor a ZIP. */
  wrongUpload: string;
  /** The name of an uploaded file sent without one. */
  defaultName: string;
  /** Why an entry is left out on purpose (not an error), if it is. */
  skip?: (fileName: string) => string | undefined;
}

/** Entries `zipEntries` reads; the others are reported without inflating them. */
const inflates = (entry: yauzl.Entry, kind: EntryKind) =>
  entry.fileName.toLowerCase().endsWith(kind.ext) &&
  entry.uncompressedSize <= kind.maxBytes &&
  !entry.isEncrypted() &&
  !kind.skip?.(entry.fileName);

/** A ZIP whose directory was read and checked: `zipEntries` reads its files from it, not walking it again. */
export interface CheckedZip {
  name: string;
  buf: Buffer;
  zip: yauzl.ZipFile;
  /** Its entries but folders and system junk (`__MACOSX/`, dotfiles): the files it yields. */
  entries: yauzl.Entry[];
  /** What those entries declare they inflate to (reading stops there: an upper bound). */
  bytes: number;
}

/**
 * Walks the central directory once (nothing is inflated; yauzl refuses absolute and `..` names) and
 * checks size and entry count, so a refused ZIP stores nothing.
 */
export async function checkZip(name: string, buf: Buffer, kind: EntryKind): Promise<CheckedZip> {
  if (buf.byteLength > MAX_ZIP_BYTES) throw new ZipRefused(413, `${name}: a ZIP may hold at most 50 MB`);
  let zip: yauzl.ZipFile | undefined;
  let count = 0;
  const checked = { entries: [] as yauzl.Entry[], bytes: 0 };
  try {
    zip = await open(buf);
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      if (++count > MAX_ZIP_ENTRIES)
        throw new ZipRefused(413, `${name}: a ZIP may hold at most ${MAX_ZIP_ENTRIES} entries`);
      if (isJunk(entry.fileName)) continue;
      checked.entries.push(entry);
      if (inflates(entry, kind)) checked.bytes += entry.uncompressedSize;
    }
    return { name, buf, zip, ...checked };
  } catch (err) {
    zip?.close();
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
  { name: zipName, buf, zip, entries }: CheckedZip,
  kind: EntryKind,
): AsyncGenerator<UploadedFile> {
  try {
    for (const entry of entries)
      yield await readChecked(zip, buf, entry, `${zipName}/${entry.fileName}`, kind);
  } finally {
    zip.close();
  }
}

/** A file of an upload, or why it was refused or left out. */
export type UploadedFile = ImportFile & { skipped?: string };

async function readChecked(
  zip: yauzl.ZipFile,
  buf: Buffer,
  entry: yauzl.Entry,
  name: string,
  kind: EntryKind,
): Promise<UploadedFile> {
  const skipped = kind.skip?.(entry.fileName);
  if (skipped) return { name, content: '', skipped };
  if (!entry.fileName.toLowerCase().endsWith(kind.ext))
    return { name, content: '', error: kind.wrongType, code: 'file_type_unsupported' };
  if (entry.uncompressedSize > kind.maxBytes)
    return { name, content: '', error: kind.tooLarge, code: 'file_too_large' };
  if (entry.isEncrypted())
    return {
      name,
      content: '',
      error: 'encrypted ZIP entries are not supported',
      code: 'zip_entry_unreadable',
    };
  try {
    return { name, content: await readEntry(zip, buf, entry) };
  } catch (err) {
    return {
      name,
      content: '',
      error: `unreadable ZIP entry: ${(err as Error).message}`,
      code: 'zip_entry_unreadable',
    };
  }
}
