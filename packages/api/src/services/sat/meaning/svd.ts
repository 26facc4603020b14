import { EigenvalueDecomposition, Matrix } from 'ml-matrix';

/** A sparse matrix by rows (CSR): row r holds cols/vals[start[r] .. start[r+1]). */
export interface SparseRows {
  rows: number;
  cols: number;
  start: Uint32Array;
  col: Uint32Array;
  val: Float32Array;
}

/** A dense row-major matrix. */
interface Dense {
  rows: number;
  cols: number;
  data: Float64Array;
}

/**
 * The top-`rank` right singular vectors of A, by randomized subspace iteration (Halko, Martinsson &
 * Tropp 2011): a seeded random start, `iterations` rounds of AᵀA, each re-orthonormalised. Only
 * products with the sparse A and eigenproblems of (rank+oversample)² are needed, so it runs on the
 * whole catalog in seconds where a dense SVD could not start. Deterministic for a given seed.
 * Returns V_k (cols × rank, row-major) and the singular values.
 */
export function truncatedSvd(
  a: SparseRows,
  rank: number,
  { oversample = 15, iterations = 2, seed = 7 } = {},
): { v: Float64Array; sigma: Float64Array; rank: number } {
  const l = Math.min(rank + oversample, a.cols, a.rows);
  // A Gaussian start is well conditioned already; each power step is re-orthonormalised.
  let x = gaussian(a.cols, l, seed);
  for (let i = 0; i < iterations; i++) x = orthonormalize(timesT(a, times(a, x)));
  // B = A·X; the eigenvectors W of BᵀB rotate X onto A's right singular vectors (X·W).
  const b = times(a, x);
  const eig = new EigenvalueDecomposition(new Matrix(gram(b)), { assumeSymmetric: true });
  const order = eig.realEigenvalues.map((value, i) => ({ value, i })).sort((p, q) => q.value - p.value);
  const k = Math.min(rank, x.cols);
  const w = eig.eigenvectorMatrix;
  const rotation = new Float64Array(x.cols * k);
  for (let m = 0; m < x.cols; m++) for (let j = 0; j < k; j++) rotation[m * k + j] = w.get(m, order[j]!.i);
  const v = multiply(x, rotation, k).data;
  const sigma = Float64Array.from(order.slice(0, k), (o) => Math.sqrt(Math.max(0, o.value)));
  return { v, sigma, rank: k };
}

/** A·X for sparse A (n × m) and dense X (m × l). */
function times(a: SparseRows, x: Dense): Dense {
  const l = x.cols;
  const out = new Float64Array(a.rows * l);
  for (let r = 0; r < a.rows; r++) {
    const o = r * l;
    for (let p = a.start[r]!; p < a.start[r + 1]!; p++) {
      const v = a.val[p]!;
      const xo = a.col[p]! * l;
      for (let j = 0; j < l; j++) out[o + j]! += v * x.data[xo + j]!;
    }
  }
  return { rows: a.rows, cols: l, data: out };
}

/** Aᵀ·Y for sparse A (n × m) and dense Y (n × l). */
function timesT(a: SparseRows, y: Dense): Dense {
  const l = y.cols;
  const out = new Float64Array(a.cols * l);
  for (let r = 0; r < a.rows; r++) {
    const yo = r * l;
    for (let p = a.start[r]!; p < a.start[r + 1]!; p++) {
      const v = a.val[p]!;
      const o = a.col[p]! * l;
      for (let j = 0; j < l; j++) out[o + j]! += v * y.data[yo + j]!;
    }
  }
  return { rows: a.cols, cols: l, data: out };
}

/** XᵀX as nested arrays. */
function gram(x: Dense): number[][] {
  const l = x.cols;
  const g = Array.from({ length: l }, () => new Array<number>(l).fill(0));
  for (let r = 0; r < x.rows; r++) {
    const o = r * l;
    for (let i = 0; i < l; i++) {
      const xi = x.data[o + i]!;
      if (xi === 0) continue;
      const gi = g[i]!;
      for (let j = i; j < l; j++) gi[j]! += xi * x.data[o + j]!;
    }
  }
  for (let i = 0; i < l; i++) for (let j = 0; j < i; j++) g[i]![j] = g[j]![i]!;
  return g;
}

/**
 * Orthonormal columns spanning X's: X·W·Λ^-½ from the eigenpairs of XᵀX, dropping directions X does
 * not really span. (One pass is orthonormal enough for a subspace iteration.)
 */
function orthonormalize(x: Dense): Dense {
  const eig = new EigenvalueDecomposition(new Matrix(gram(x)), { assumeSymmetric: true });
  const values = eig.realEigenvalues;
  const w = eig.eigenvectorMatrix;
  const top = Math.max(...values);
  const keep = values.map((v, i) => ({ v, i })).filter(({ v }) => v > top * 1e-10);
  const k = keep.length;
  const t = new Float64Array(x.cols * k);
  for (let m = 0; m < x.cols; m++)
    keep.forEach(({ v, i }, j) => {
      t[m * k + j] = w.get(m, i) / Math.sqrt(v);
    });
  return multiply(x, t, k);
}

/** X·T for dense X (n × l) and T (l × k, row-major). */
function multiply(x: Dense, t: Float64Array, k: number): Dense {
  const l = x.cols;
  const data = new Float64Array(x.rows * k);
  for (let r = 0; r < x.rows; r++) {
    const o = r * l;
    const out = r * k;
    for (let m = 0; m < l; m++) {
      const xm = x.data[o + m]!;
      if (xm === 0) continue;
      const tm = m * k;
      for (let j = 0; j < k; j++) data[out + j]! += xm * t[tm + j]!;
    }
  }
  return { rows: x.rows, cols: k, data };
}

/** Standard normal entries from a seeded generator (mulberry32 + Box–Muller). */
function gaussian(rows: number, cols: number, seed: number): Dense {
  let s = seed >>> 0;
  const uniform = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < data.length; i++)
    data[i] = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  return { rows, cols, data };
}
