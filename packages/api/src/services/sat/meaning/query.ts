import { derivedStems } from './derive';
import { type Intent, intentFactorOf } from './intent';
import { LEXICON, LEXICON_LONGEST } from './lexicon';
import type { MeaningModel } from './model';
import { normalize } from './model';
import { fold, isContentWord, stem, words } from './text';

/** One weighted stem of a query and where it came from: the user's word, or a lexicon entry. */
export interface QueryTerm {
  stem: string;
  /** The term's own word: the user's, or the catalog word the lexicon gave. */
  text: string;
  weight: number;
  /** The user's word (as typed, lower case). */
  word: string;
  /**
   * The lexicon phrase, or the catalog noun of the verb typed (derive.ts), that brought this term in,
   * when it did not come straight from the query.
   */
  via?: string;
}

/** How much a term the lexicon adds weighs next to a word the user typed. */
const EXPANSION_WEIGHT = 0.8;

/**
 * The query's terms: its content words (spelled as the catalog spells them, so "cafeteria" stems
 * like "cafetería"), the catalog's nouns of the verbs among them ("pinté" → pintura), plus, for each colloquial phrase of the lexicon it contains ("depa", "al por
 * menor"), the catalog words that phrase means.
 */
export function analyzeQuery(model: MeaningModel, query: string): QueryTerm[] {
  const typed = words(query);
  const folded = typed.map(fold);
  const out: QueryTerm[] = [];
  for (const w of typed) {
    if (!isContentWord(w)) continue;
    const own = stem(model.spelling.get(w) ?? w);
    out.push({ stem: own, text: w, weight: 1, word: w });
    for (const s of derivedStems(model, w, own)) {
      const noun = model.surface[model.vocabulary.get(s)!]!;
      out.push({ stem: s, text: noun, weight: EXPANSION_WEIGHT, word: w, via: noun });
    }
  }
  const stems = folded.map(stem);
  for (let i = 0; i < folded.length; i++) {
    for (let n = Math.min(LEXICON_LONGEST, folded.length - i); n >= 1; n--) {
      const meaning =
        LEXICON[folded.slice(i, i + n).join(' ')] ?? lexiconByStems().get(stems.slice(i, i + n).join(' '));
      if (meaning === undefined) continue;
      for (const w of words(meaning))
        if (isContentWord(w))
          out.push({
            stem: stem(w),
            text: w,
            weight: EXPANSION_WEIGHT,
            word: typed.slice(i, i + n).join(' '),
            via: meaning,
          });
      i += n - 1;
      break;
    }
  }
  return out;
}

/**
 * The query's words that narrow the catalog down: those in at most `maxShare` of the codes ("servicio"
 * is in thousands and says little). Unknown words are kept out too: they match nothing.
 */
export function selectiveWords(model: MeaningModel, terms: QueryTerm[], maxShare = 0.02): string[] {
  const most = model.ids.length * maxShare;
  const out = new Set<string>();
  for (const t of terms) {
    const id = model.vocabulary.get(t.stem);
    if (id !== undefined && model.postings[id]!.doc.length <= most) out.add(t.text);
  }
  return [...out];
}

let byStems: Map<string, string> | undefined;
/** The lexicon keyed by the stems of its phrases, so "autos" finds "auto" and "fugas" "fuga". */
function lexiconByStems(): Map<string, string> {
  if (!byStems) {
    byStems = new Map();
    for (const [phrase, meaning] of Object.entries(LEXICON)) {
      const key = phrase.split(' ').map(stem).join(' ');
      if (!byStems.has(key)) byStems.set(key, meaning);
    }
  }
  return byStems;
}

export interface Ranked {
  /** Position in the model's codes. */
  doc: number;
  score: number;
}

/**
 * How the two similarities mix: words shared exactly, and closeness in the latent space. 0.8 from
 * the tuning half and the project's set (0.55 before issue 30: 0.7–0.9 did better on both).
 */
const WORD_SHARE = 0.8;

/**
 * Codes by similarity to the query terms, best first, at most `depth`: a mix of the cosine of their
 * TF-IDF vectors and of their latent vectors. Codes no longer valid rank a little lower, and so do
 * codes of the other kind than the sentence's `intent` (goods or a service).
 */
export function rankByMeaning(
  model: MeaningModel,
  terms: QueryTerm[],
  depth: number,
  intent?: Intent,
): Ranked[] {
  const q = new Map<number, number>();
  for (const t of terms) {
    const id = model.vocabulary.get(t.stem);
    if (id !== undefined) q.set(id, (q.get(id) ?? 0) + t.weight * model.idf[id]!);
  }
  if (q.size === 0) return [];
  const norm = Math.sqrt([...q.values()].reduce((s, w) => s + w * w, 0));
  const k = model.dims;
  const latent = new Float32Array(k);
  for (const [id, w] of q) {
    const o = id * k;
    const f = (w / norm) * model.termScale[id]!;
    for (let j = 0; j < k; j++) latent[j]! += f * model.termVectors[o + j]!;
  }
  normalize(latent);
  const n = model.ids.length;
  const scores = new Float32Array(n);
  const v = model.docVectors;
  // The hot loop (codes × dims): four sums at a time, k being a multiple of 4 in practice.
  const k4 = k - (k % 4);
  for (let d = 0, o = 0; d < n; d++, o += k) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let j = 0;
    for (; j < k4; j += 4) {
      s0 += latent[j]! * v[o + j]!;
      s1 += latent[j + 1]! * v[o + j + 1]!;
      s2 += latent[j + 2]! * v[o + j + 2]!;
      s3 += latent[j + 3]! * v[o + j + 3]!;
    }
    for (; j < k; j++) s0 += latent[j]! * v[o + j]!;
    const s = (s0 + s1 + s2 + s3) * model.docScale[d]!;
    scores[d] = s > 0 ? (1 - WORD_SHARE) * s : 0;
  }
  for (const [id, w] of q) {
    const { doc, weight } = model.postings[id]!;
    const f = (WORD_SHARE * w) / norm;
    for (let p = 0; p < doc.length; p++) scores[doc[p]!]! += f * weight[p]!;
  }
  coverage(model, terms, scores);
  if (intent) for (let d = 0; d < n; d++) scores[d]! *= intentFactorOf(intent, model.service[d]!);
  return top(scores, model.expired, depth);
}

/** How much more a code holding every concept of the query weighs than one holding none. */
const COVERAGE = 2;

/**
 * Rewards codes that hold more of the query's concepts (a typed word with its readings is one
 * concept): "muebles de madera" is better answered by wooden furniture than by "Madera" alone,
 * which the cosine of a short description favours. Concepts the catalog does not know at all
 * ("Chiapas") are left out of the count. Lucene's classic coordination factor, softened.
 */
function coverage(model: MeaningModel, terms: QueryTerm[], scores: Float32Array): void {
  const concepts = new Map<string, Set<number>>();
  for (const t of terms) {
    const id = model.vocabulary.get(t.stem);
    if (id === undefined) continue;
    const set = concepts.get(t.word) ?? new Set();
    concepts.set(t.word, set.add(id));
  }
  if (concepts.size < 2 || concepts.size > 31) return;
  const mask = new Uint32Array(scores.length);
  let bit = 1;
  for (const ids of concepts.values()) {
    for (const id of ids) for (const d of model.postings[id]!.doc) mask[d]! |= bit;
    bit <<= 1;
  }
  const factor = Array.from(
    { length: concepts.size + 1 },
    (_, held) => (1 + (COVERAGE * held) / concepts.size) / (1 + COVERAGE),
  );
  for (let d = 0; d < scores.length; d++) if (scores[d]! > 0) scores[d]! *= factor[popcount(mask[d]!)]!;
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x; v; v &= v - 1) n++;
  return n;
}

/** The `depth` best scores, expired codes discounted: one pass keeping a small sorted window. */
function top(scores: Float32Array, expired: Uint8Array, depth: number): Ranked[] {
  const best: Ranked[] = [];
  let floor = 1e-6;
  for (let d = 0; d < scores.length; d++) {
    const raw = scores[d]!;
    if (raw < floor) continue;
    const score = expired[d] ? raw * 0.9 : raw;
    if (score < floor) continue;
    let i = best.length;
    while (i > 0 && best[i - 1]!.score < score) i--;
    best.splice(i, 0, { doc: d, score });
    if (best.length > depth) {
      best.pop();
      floor = best[best.length - 1]!.score;
    }
  }
  return best;
}
