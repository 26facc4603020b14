import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { fold, isContentWord, stem, words } from './text';

/**
 * A general resource of Spanish meaning, not written from any query: LibreOffice's Spanish thesaurus
 * (packages/api/data/SOURCES.md), one line per sense, an entry word and its synonyms. The catalog
 * names things one way ("plomería", "aplicación"); people use words it never uses. A word the
 * catalog does not know is read through the thesaurus' words for the same thing that it does know.
 */
export const THESAURUS_FILE = createRequire(import.meta.url).resolve('@folio/api/data/thesaurus-es.txt.gz');

/** The thesaurus' senses, each a list of words or phrases (the entry word first). Read at model build only. */
export function readThesaurus(file = THESAURUS_FILE): string[][] {
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('|'));
}

/**
 * Per stem the catalog does not know, or barely (in at most RARE_DOCS codes): catalog term numbers of
 * the same meaning, with their weight (best 1).
 */
export type Related = Map<string, { terms: number[]; weights: number[] }>;

/** A stem in this many codes or fewer is barely known to the catalog: its synonyms may widen it. */
export const RARE_DOCS = 5;
/** How many catalog terms a word unknown to the catalog is read as, at most. */
const MAX_RELATED = 12;
/** A synonym's say falls with its place in the sense (the thesaurus lists the closest first). */
const rankWeight = (place: number) => 1 / Math.sqrt(1 + place);

/**
 * For every single word of the thesaurus whose stem the catalog's `vocabulary` lacks, or holds in at
 * most RARE_DOCS codes (`docsOf`), its synonyms the catalog knows, by how many of its senses name them and how early. The thesaurus is read both
 * ways (a word listed only as a synonym still gets the entry word and its fellow synonyms). A synonym
 * counts only when the catalog writes that very word (`catalogWords`, folded; a plural of it will
 * do), not merely one of its stem: Snowball cuts verbs hard, and "combar" is no "combo" nor
 * "conducir" a "conductividad".
 */
export function relatedTerms(
  vocabulary: Map<string, number>,
  catalogWords: Set<string>,
  senses: string[][],
  docsOf: (term: number) => number = () => Number.POSITIVE_INFINITY,
): Related {
  // stem → neighbouring words with their summed weight (a phrase counts by its content words).
  const graph = new Map<string, Map<string, number>>();
  const wordsOf = (term: string) => words(term).filter(isContentWord);
  for (const sense of senses) {
    const terms = sense.map(wordsOf);
    terms.forEach((own, i) => {
      if (own.length !== 1) return; // keys are single words; phrases only lend their words
      const key = stem(own[0]!);
      const edges = graph.get(key) ?? new Map<string, number>();
      graph.set(key, edges);
      terms.forEach((other, j) => {
        if (j === i) return;
        // The entry word is the sense's centre: every synonym is one step from it.
        const w = rankWeight(i === 0 ? j - 1 : j === 0 ? 0 : j) / other.length;
        for (const o of other) if (stem(o) !== key) edges.set(o, (edges.get(o) ?? 0) + w);
      });
    });
  }
  const written = (word: string) => {
    const w = fold(word);
    return catalogWords.has(w) || catalogWords.has(`${w}s`) || catalogWords.has(`${w}es`);
  };
  const out: Related = new Map();
  for (const [key, edges] of graph) {
    const own = vocabulary.get(key);
    if (own !== undefined && docsOf(own) > RARE_DOCS) continue;
    const score = new Map<number, number>();
    // Synonyms of synonyms were tried and left out: "pastor" → zagal → talego.
    for (const [o, w] of edges) {
      const t = written(o) ? vocabulary.get(stem(o)) : undefined;
      if (t !== undefined && t !== own) score.set(t, (score.get(t) ?? 0) + w);
    }
    if (score.size === 0) continue;
    const best = [...score].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, MAX_RELATED);
    const top = best[0]![1];
    out.set(key, {
      terms: best.map(([t]) => t),
      weights: best.map(([, w]) => Math.round((100 * w) / top) / 100),
    });
  }
  return out;
}
