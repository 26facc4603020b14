import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type MeaningModel, serviceFlags } from './model';

/**
 * The meaning model as one file, so a start reads it in milliseconds instead of building it again
 * (the SVD of the full catalog takes seconds): a magic, the length of a JSON header (catalog version,
 * sizes, stems, words), then the typed arrays as they are in memory, each 4-byte aligned, read back
 * as views on the file's buffer without copying. A file of another catalog version or format reads
 * as nothing, and the caller builds anew.
 */
const MAGIC = 'FOLIOMM3';

interface Header {
  version: string;
  n: number;
  terms: number;
  dims: number;
  postings: number;
  /** The codes, 8 digits each, one after another. */
  ids: string;
  vocabulary: string[];
  surface: string[];
  spelling: [string, string][];
}

const pad4 = (n: number) => (n + 3) & ~3;

export function writeMeaningModel(file: string, version: string, model: MeaningModel): void {
  const counts = Uint32Array.from(model.postings, (p) => p.doc.length);
  const total = counts.reduce((s, c) => s + c, 0);
  const docs = new Uint32Array(total);
  const weights = new Float32Array(total);
  let at = 0;
  for (const p of model.postings) {
    docs.set(p.doc, at);
    weights.set(p.weight, at);
    at += p.doc.length;
  }
  const header: Header = {
    version,
    n: model.ids.length,
    terms: model.idf.length,
    dims: model.dims,
    postings: total,
    ids: model.ids.join(''),
    vocabulary: [...model.vocabulary.keys()],
    surface: model.surface,
    spelling: [...model.spelling],
  };
  const json = Buffer.from(JSON.stringify(header));
  const sections = [
    model.expired,
    model.idf,
    counts,
    docs,
    weights,
    model.termScale,
    model.docScale,
    model.termVectors,
    model.docVectors,
  ];
  const start = pad4(MAGIC.length + 4 + json.length);
  const size = sections.reduce((s, a) => s + pad4(a.byteLength), start);
  const out = Buffer.alloc(size);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(json.length, MAGIC.length);
  json.copy(out, MAGIC.length + 4);
  let offset = start;
  for (const a of sections) {
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).copy(out, offset);
    offset += pad4(a.byteLength);
  }
  // Written aside and renamed: a server starting meanwhile reads the old file or the new one whole.
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, out);
  renameSync(tmp, file);
}

/** The model stored in `file` for catalog `version`, or undefined (no file, another version, another format). */
export function readMeaningModel(file: string, version: string): MeaningModel | undefined {
  let raw: Buffer;
  try {
    raw = readFileSync(file);
  } catch {
    return undefined;
  }
  if (raw.length < MAGIC.length + 4 || raw.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
  const length = raw.readUInt32LE(MAGIC.length);
  const header = JSON.parse(raw.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + length)) as Header;
  if (header.version !== version) return undefined;
  // Typed-array views need 4-byte alignment within the ArrayBuffer.
  const bytes = raw.byteOffset % 4 === 0 ? raw : Buffer.from(raw);
  let offset = bytes.byteOffset + pad4(MAGIC.length + 4 + length);
  const take = <T>(
    make: (buffer: ArrayBuffer, at: number, count: number) => T,
    count: number,
    width: number,
  ) => {
    const view = make(bytes.buffer as ArrayBuffer, offset, count);
    offset += pad4(count * width);
    return view;
  };
  const { n, terms, dims, postings } = header;
  const expired = take((b, o, c) => new Uint8Array(b, o, c), n, 1);
  const idf = take((b, o, c) => new Float32Array(b, o, c), terms, 4);
  const counts = take((b, o, c) => new Uint32Array(b, o, c), terms, 4);
  const docs = take((b, o, c) => new Uint32Array(b, o, c), postings, 4);
  const weights = take((b, o, c) => new Float32Array(b, o, c), postings, 4);
  const termScale = take((b, o, c) => new Float32Array(b, o, c), terms, 4);
  const docScale = take((b, o, c) => new Float32Array(b, o, c), n, 4);
  const termVectors = take((b, o, c) => new Int8Array(b, o, c), terms * dims, 1);
  const docVectors = take((b, o, c) => new Int8Array(b, o, c), n * dims, 1);
  let at = 0;
  const lists = Array.from(counts, (c) => {
    const list = { doc: docs.subarray(at, at + c), weight: weights.subarray(at, at + c) };
    at += c;
    return list;
  });
  const ids = Array.from({ length: n }, (_, i) => header.ids.slice(i * 8, i * 8 + 8));
  return {
    ids,
    expired,
    service: serviceFlags(ids),
    vocabulary: new Map(header.vocabulary.map((s, i) => [s, i])),
    surface: header.surface,
    idf,
    postings: lists,
    spelling: new Map(header.spelling),
    dims,
    termVectors,
    termScale,
    docVectors,
    docScale,
  };
}
