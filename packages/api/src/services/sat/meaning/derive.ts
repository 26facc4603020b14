import type { MeaningModel } from './model';
import { fold, stem } from './text';

/**
 * People say what they do with a verb ("pinté", "limpio", "coloqué", "traduzco"); the catalog names
 * the service with the noun of the same root (pintura, limpieza, colocación, traducción). Snowball
 * does not join the two (it even cuts "reparé" to "rep"), so a verb form is taken back to its root
 * by its ending, with the spelling changes Spanish makes before -e (coloqu-é ← colocar, fumigu-é ←
 * fumigar, impermeabilic-é ← impermeabilizar) and in irregular first persons (tradu-zc-o, tradu-j-e),
 * and the catalog's stems that are that root plus a noun-forming ending are its readings.
 */

/** First-person and infinitive endings, longest first; accents as typed (é, í, ó mark the preterite). */
const VERB_ENDINGS = [
  'ieron',
  'aron',
  'amos',
  'imos',
  'iste',
  'aste',
  'ando',
  'iendo',
  'ar',
  'er',
  'ir',
  'é',
  'í',
  'ó',
  'o',
];

/** What a catalog stem may add to a verb's root to name its doing: pint-ur(a), limpi-ez(a), traduc-cion… */
const NOUN_ENDINGS = new Set([
  '',
  'ur',
  'or',
  'ador',
  'ad',
  'aj',
  'cion',
  'ccion',
  'sion',
  'ion',
  'ez',
  'eri',
  'ment',
  'anz',
  'ist',
  'aci',
]);

/** Spelling changes at the end of a root: the form typed → the forms the catalog's nouns have. */
const ROOT_SPELLINGS: [RegExp, string[]][] = [
  [/qu$/, ['c']],
  [/gu$/, ['g']],
  [/zc$/, ['c']],
  [/c$/, ['c', 'z']],
  [/j$/, ['c', 'g']],
];

const MIN_ROOT = 4;

/** The roots a word may be the verb of (none when it does not end like one). */
export function verbRoots(word: string): string[] {
  const ending = VERB_ENDINGS.find((e) => word.endsWith(e) && word.length - e.length >= MIN_ROOT);
  if (!ending) return [];
  const root = fold(word.slice(0, -ending.length));
  for (const [from, to] of ROOT_SPELLINGS) if (from.test(root)) return to.map((t) => root.replace(from, t));
  return [root];
}

const prefixIndex = new WeakMap<MeaningModel, Map<string, string[]>>();
/** The model's stems by their first MIN_ROOT letters, built on first use. */
function stemsByPrefix(model: MeaningModel): Map<string, string[]> {
  let index = prefixIndex.get(model);
  if (!index) {
    index = new Map();
    for (const s of model.vocabulary.keys()) {
      if (s.length < MIN_ROOT) continue;
      const key = s.slice(0, MIN_ROOT);
      const list = index.get(key);
      if (list) list.push(s);
      else index.set(key, [s]);
    }
    prefixIndex.set(model, index);
  }
  return index;
}

/** Diminutives ("tiendita", "cafecito", "pastelitos"), read as the word they diminish. */
const DIMINUTIVE = /c?it[oa]s?$/;

/**
 * The catalog stems naming what the verb `word` does, or what the diminutive `word` diminishes,
 * other than `own` (the word's own stem).
 */
export function derivedStems(model: MeaningModel, word: string, own: string): string[] {
  const out = new Set<string>();
  const base = fold(word).replace(DIMINUTIVE, '');
  if (base !== fold(word) && base.length >= 3)
    for (const s of ['', 'a', 'o', 'e'].map((end) => stem(base + end)))
      if (s !== own && model.vocabulary.has(s)) out.add(s);
  for (const root of verbRoots(word)) {
    for (const s of stemsByPrefix(model).get(root.slice(0, MIN_ROOT)) ?? []) {
      if (s !== own && s.startsWith(root) && NOUN_ENDINGS.has(s.slice(root.length))) out.add(s);
    }
  }
  return [...out];
}
