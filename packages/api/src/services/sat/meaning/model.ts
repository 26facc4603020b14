import { isServiceCode } from './segment';
import { type SparseRows, truncatedSvd } from './svd';
import { fold, isContentWord, stem, words } from './text';

/** What the model reads of a catalog row. */
export interface CatalogEntry {
  id: string;
  descripcion: string;
  palabrasSimilares: string | null;
  fechaFinVigencia: string | null;
}

/**
 * A latent-semantic model of the catalog: TF-IDF over the stems of each code's description and
 * similar words, and its truncated SVD, so a query is compared with every code both word by word
 * (the sparse TF-IDF) and by the company its words keep across the catalog (the latent space).
 */
export interface MeaningModel {
  ids: string[];
  expired: Uint8Array;
  /** Per code, 1 when its segment is a service's (intent.ts): derived from `ids`, not stored. */
  service: Uint8Array;
  /** stem → term number */
  vocabulary: Map<string, number>;
  /** Per term, a catalog word with that stem (what the full-text search is given for a derived stem). */
  surface: string[];
  idf: Float32Array;
  /** Per term, the codes holding it with their normalised TF-IDF weight (for the word score). */
  postings: { doc: Uint32Array; weight: Float32Array }[];
  /** Folded word → the accented form the catalog writes it with ("cafeteria" → "cafetería"). */
  spelling: Map<string, string>;
  dims: number;
  /** terms × dims: a term's place in the latent space, quantised (a row times its `termScale`). */
  termVectors: Int8Array;
  termScale: Float32Array;
  /** codes × dims, unit length, quantised the same way (a row times its `docScale`). */
  docVectors: Int8Array;
  docScale: Float32Array;
}

export const LATENT_DIMENSIONS = 64;
const CLASS_WEIGHT = 0.5;

export function buildMeaningModel(entries: CatalogEntry[], dims = LATENT_DIMENSIONS): MeaningModel {
  const vocabulary = new Map<string, number>();
  const surface: string[] = [];
  const spelling = new Map<string, string>();
  const df: number[] = [];
  const docs: Map<number, number>[] = [];
  const classes = new Map(entries.filter((e) => e.id.endsWith('00')).map((e) => [e.id, e.descripcion]));
  for (const e of entries) {
    const tf = new Map<number, number>();
    const own = words(`${e.descripcion} ${e.palabrasSimilares ?? ''}`);
    const kin = e.id.endsWith('00') ? [] : words(classes.get(`${e.id.slice(0, 6)}00`) ?? '');
    for (const [i, w] of [...own, ...kin].entries()) {
      if (!isContentWord(w)) continue;
      const f = fold(w);
      if (f !== w && !spelling.has(f)) spelling.set(f, w);
      const s = stem(w);
      let t = vocabulary.get(s);
      if (t === undefined) {
        t = vocabulary.size;
        vocabulary.set(s, t);
        surface.push(w);
        df.push(0);
      }
      if (!tf.has(t)) df[t]!++;
      tf.set(t, (tf.get(t) ?? 0) + (i < own.length ? 1 : CLASS_WEIGHT));
    }
    docs.push(tf);
  }
  const n = entries.length;
  const idf = Float32Array.from(df, (d) => Math.log((n + 1) / d));
  const a = sparseTfIdf(docs, idf);
  const postings = columns(a);
  const k = Math.max(1, Math.min(dims, vocabulary.size - 1, n - 1));
  const { v, rank } = truncatedSvd(a, k);
  const termVectors = Float32Array.from(v);
  const docVectors = new Float32Array(n * rank);
  for (let r = 0; r < n; r++) {
    const o = r * rank;
    for (let p = a.start[r]!; p < a.start[r + 1]!; p++) {
      const w = a.val[p]!;
      const to = a.col[p]! * rank;
      for (let j = 0; j < rank; j++) docVectors[o + j]! += w * termVectors[to + j]!;
    }
    normalize(docVectors.subarray(o, o + rank));
  }
  const terms = quantize(termVectors, rank);
  const codes = quantize(docVectors, rank);
  const ids = entries.map((e) => e.id);
  return {
    ids,
    expired: Uint8Array.from(entries, (e) => (e.fechaFinVigencia ? 1 : 0)),
    service: serviceFlags(ids),
    vocabulary,
    surface,
    idf,
    postings,
    spelling,
    dims: rank,
    termVectors: terms.values,
    termScale: terms.scale,
    docVectors: codes.values,
    docScale: codes.scale,
  };
}

export const serviceFlags = (ids: string[]): Uint8Array =>
  Uint8Array.from(ids, (id) => (isServiceCode(id) ? 1 : 0));

/**
 * Rows of `dims` floats as signed bytes, each row scaled by its largest magnitude: a quarter of the
 * memory (the codes' vectors were 13 MB of the server's resident set) and of what a search reads,
 * for a cosine off by under 1 % of a component's range, far below what tells two codes apart.
 */
function quantize(rows: Float32Array, dims: number): { values: Int8Array; scale: Float32Array } {
  const count = rows.length / dims;
  const values = new Int8Array(rows.length);
  const scale = new Float32Array(count);
  for (let r = 0, o = 0; r < count; r++, o += dims) {
    let max = 0;
    for (let j = 0; j < dims; j++) max = Math.max(max, Math.abs(rows[o + j]!));
    if (max === 0) continue;
    scale[r] = max / 127;
    for (let j = 0; j < dims; j++) values[o + j] = Math.round((rows[o + j]! / max) * 127);
  }
  return { values, scale };
}

/** Rows of sublinear TF × IDF, each of unit length. */
function sparseTfIdf(docs: Map<number, number>[], idf: Float32Array): SparseRows {
  const start = new Uint32Array(docs.length + 1);
  docs.forEach((d, i) => {
    start[i + 1] = start[i]! + d.size;
  });
  const col = new Uint32Array(start[docs.length]!);
  const val = new Float32Array(col.length);
  docs.forEach((d, i) => {
    let p = start[i]!;
    for (const [t, f] of [...d].sort((x, y) => x[0] - y[0])) {
      col[p] = t;
      val[p++] = (f >= 1 ? 1 + Math.log(f) : f) * idf[t]!;
    }
    normalize(val.subarray(start[i]!, p));
  });
  return { rows: docs.length, cols: idf.length, start, col, val };
}

/** The same matrix by columns: per term, which codes hold it and how strongly. */
function columns(a: SparseRows): MeaningModel['postings'] {
  const count = new Uint32Array(a.cols);
  for (const c of a.col) count[c]!++;
  const out = Array.from(count, (c) => ({ doc: new Uint32Array(c), weight: new Float32Array(c) }));
  const fill = new Uint32Array(a.cols);
  for (let r = 0; r < a.rows; r++)
    for (let p = a.start[r]!; p < a.start[r + 1]!; p++) {
      const c = a.col[p]!;
      const slot = fill[c]!++;
      out[c]!.doc[slot] = r;
      out[c]!.weight[slot] = a.val[p]!;
    }
  return out;
}

export function normalize(v: Float32Array): void {
  let s = 0;
  for (const x of v) s += x * x;
  if (s === 0) return;
  const inv = 1 / Math.sqrt(s);
  for (let i = 0; i < v.length; i++) v[i]! *= inv;
}
