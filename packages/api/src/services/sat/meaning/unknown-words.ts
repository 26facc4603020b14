import type { MeaningModel } from './model';
import type { QueryTerm } from './query-term';
import { fold, stem } from './text';

/**
 * How much a reading of a word the catalog lacks weighs at best (a word typed weighs 1), by how it
 * was found: the same word in another form nearly as much as the word itself, a synonym or the
 * catalog word a clipping may stand for less (the lexicon's readings weigh 0.8).
 */
const FORM_WEIGHT = 0.9;
const THESAURUS_WEIGHT = 0.6;
/** A word the catalog barely knows (thesaurus.ts, RARE_DOCS) stands mostly for itself: its synonyms weigh half. */
const BARELY_KNOWN = 0.5;
const CLIPPING_WEIGHT = 0.6;
/** At most this many readings of one word are kept. */
const READINGS = 4;
/**
 * Synonyms less close than this to the rest of the query (cosine of Σ-scaled latent vectors) are
 * dropped: at 0.45 the tuning half's wrong senses went ("ajenas" → visible, "chocada" → acometida,
 * "plaza" → cimentación) and its right ones stayed ("sesión" → reuniones, "mudé" → cambiar).
 */
const MIN_CLOSENESS = 0.45;

/**
 * Prefixes that make new nouns of whole words ("autolavado", "multiservicios", "minibar"): a word the
 * catalog lacks may be one of these before a word it knows.
 */
const PREFIXES = [
  'mini',
  'micro',
  'macro',
  'mega',
  'super',
  'hiper',
  'multi',
  'semi',
  'auto',
  'electro',
  'eco',
  'bio',
  'agro',
  'moto',
];

/** A clipped word ("depa", "compu", "refri", "bici") is this long (a longer one, "pastor", is whole). */
const MIN_CLIPPING = 3;
const MAX_CLIPPING = 5;
/** A beginning shared by more catalog stems than this says too little to be read as a clipping. */
const MAX_CLIPPED = 12;

/**
 * Readings of the query's words the catalog does not know, each a catalog term weighted by how it
 * was found, and chosen by the rest of the query (of words it barely knows, only the thesaurus' at
 * half weight):
 * - by form, the same word: a plural Snowball left whole ("años" → año), or a prefix before a word
 *   the catalog knows ("autolavado" → lavado, "multiservicios" → servicios);
 * - by meaning, the thesaurus' synonyms the catalog knows (thesaurus.ts);
 * - failing both, as a clipping of the catalog words it begins ("depa" → departamento, "refri" →
 *   refrigerador), the way Mexican Spanish shortens long words.
 * A word has several senses ("engorda": fattening, but also swelling), a beginning several words: the
 * readings kept are those whose catalog words keep company, in the latent space, with the query's
 * other words. A word alone in its query keeps each source's own order.
 */
export function unknownWordTerms(model: MeaningModel, terms: QueryTerm[], unknown: string[]): QueryTerm[] {
  const out: QueryTerm[] = [];
  for (const word of unknown) {
    const context = contextVector(model, terms, word);
    // t → [weight, whether it is the same word (by form or clipping) rather than a synonym]
    const candidates = new Map<number, [number, boolean]>();
    const offer = (t: number, w: number, same: boolean) => {
      if (w > (candidates.get(t)?.[0] ?? 0)) candidates.set(t, [w, same]);
    };
    const own = stem(model.spelling.get(word) ?? word);
    const known = model.vocabulary.has(own);
    if (!known) for (const t of formReadings(model, word)) offer(t, FORM_WEIGHT, true);
    const related = model.related.get(own);
    related?.terms.forEach((t, i) => {
      offer(t, (known ? BARELY_KNOWN : 1) * THESAURUS_WEIGHT * related.weights[i]!, false);
    });
    if (candidates.size === 0 && !known)
      for (const [t, w] of clippingReadings(model, word)) offer(t, CLIPPING_WEIGHT * w, true);
    // A synonym must fit the context; the same word's best reading is kept even when the context
    // says nothing of it ("refris usados").
    const ranked = [...candidates]
      .map(([t, [w, same]]) => {
        const c = context ? closeness(model, t, context) : 1;
        return { t, same, c, w: w * Math.sqrt(Math.max(c, MIN_CLOSENESS)) };
      })
      .sort((a, b) => b.w - a.w);
    const sameBest = ranked.find((r) => r.same);
    const readings = ranked.filter((r) => r.c >= MIN_CLOSENESS || r === sameBest).slice(0, READINGS);
    const scale = readings.length ? Math.max(...readings.map((r) => r.w)) : 1;
    const best = Math.max(...[...candidates.values()].map(([w]) => w));
    for (const { t, w } of readings) {
      const text = model.surface[t]!;
      out.push({ stem: stem(text), text, weight: (best * w) / scale, word, via: text });
    }
  }
  return out;
}

/** Catalog terms that are the same word as `word` in another form: its singular, or it without a prefix. */
function formReadings(model: MeaningModel, word: string): number[] {
  const f = fold(word);
  const forms = [f.replace(/e?s$/, ''), f.replace(/s$/, '')];
  for (const p of PREFIXES) if (f.startsWith(p) && f.length - p.length >= 4) forms.push(f.slice(p.length));
  const out = new Set<number>();
  for (const form of forms) {
    for (const s of [form, form.replace(/e?s$/, '')]) {
      const t = model.vocabulary.get(stem(s));
      if (t !== undefined && s !== f) out.add(t);
    }
  }
  return [...out];
}

const sortedStems = new WeakMap<MeaningModel, string[]>();
/** Catalog terms whose stem begins with `word` (folded), the commoner first, weighted by how common. */
function clippingReadings(model: MeaningModel, word: string): [number, number][] {
  // Clippings take a plural -s ("refris", "bicis", "apps").
  const f = fold(word).replace(/(?<=[aeiouyp])s$/, '');
  // A written accent marks a whole word, often a verb ("eché"), not a clipping.
  if (f.length < MIN_CLIPPING || f.length > MAX_CLIPPING || fold(word) !== word) return [];
  let sorted = sortedStems.get(model);
  if (!sorted) {
    sorted = [...model.vocabulary.keys()].sort();
    sortedStems.set(model, sorted);
  }
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < f) lo = mid + 1;
    else hi = mid;
  }
  const found: number[] = [];
  for (let i = lo; i < sorted.length && sorted[i]!.startsWith(f); i++)
    found.push(model.vocabulary.get(sorted[i]!)!);
  if (found.length === 0 || found.length > MAX_CLIPPED) return [];
  const df = (t: number) => model.postings[t]!.doc.length;
  const most = Math.max(...found.map(df));
  return found.map((t) => [t, Math.sqrt(df(t) / most)]);
}

/** The latent vector of the query's terms other than `word`'s (scaled by the singular values), unit length; undefined when there are none. */
function contextVector(model: MeaningModel, terms: QueryTerm[], word: string): Float32Array | undefined {
  const k = model.dims;
  const v = new Float32Array(k);
  let any = false;
  for (const t of terms) {
    if (t.word === word) continue;
    const id = model.vocabulary.get(t.stem);
    if (id === undefined) continue;
    any = true;
    const w = t.weight * model.idf[id]!;
    for (let j = 0; j < k; j++) v[j]! += w * model.sigma[j]! * model.termVectors[id * k + j]!;
  }
  return any ? unit(v) : undefined;
}

/** Cosine of term `t`'s latent vector (scaled by the singular values, as LSA compares terms) with the unit vector `context`. */
function closeness(model: MeaningModel, t: number, context: Float32Array): number {
  const k = model.dims;
  const o = t * k;
  let dot = 0;
  let norm = 0;
  for (let j = 0; j < k; j++) {
    const x = model.sigma[j]! * model.termVectors[o + j]!;
    dot += x * context[j]!;
    norm += x * x;
  }
  return norm === 0 ? 0 : dot / Math.sqrt(norm);
}

function unit(v: Float32Array): Float32Array | undefined {
  let s = 0;
  for (const x of v) s += x * x;
  if (s === 0) return undefined;
  const inv = 1 / Math.sqrt(s);
  return v.map((x) => x * inv);
}
