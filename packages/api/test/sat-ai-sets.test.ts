import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SAT_AI_HELD_OUT } from '../../../bench/sat-ai/held-out';
import { SAT_AI_TUNING } from '../../../bench/sat-ai/tuning';
import { TRADE_LEXICON } from '../src/services/sat/meaning/lexicon-trades';
import { fold, isContentWord, stem, words } from '../src/services/sat/meaning/text';
import { fullCatalogCsv } from './catalog-file';

/** The current codes of the catalog CSV (first column; rows with a fin de vigencia kept: still codes). */
function catalogCodes(): Set<string> {
  const file = fullCatalogCsv();
  const raw = readFileSync(file);
  const text = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  return new Set(text.match(/^\d{8}(?=,)/gm) ?? []);
}

/** The keys of `lexicon` holding a content word (by folded stem) of some held-out query. */
function heldOutWordsIn(lexicon: Record<string, string>): string[] {
  // Snowball leaves some plurals whole ("minisplits"): a final -s or -es is dropped on both sides.
  const stems = (text: string) =>
    words(text)
      .filter(isContentWord)
      .map((w) => stem(fold(w)).replace(/e?s$/, ''));
  const heldOut = new Set(SAT_AI_HELD_OUT.flatMap((c) => stems(c.query)));
  return Object.keys(lexicon).filter((key) => stems(key).some((s) => heldOut.has(s)));
}

describe('the second colloquial set of the search by meaning (bench/sat-ai, issue 30)', () => {
  it('has two halves of at least 75 queries each, none in both', () => {
    expect(SAT_AI_TUNING.length).toBeGreaterThanOrEqual(75);
    expect(SAT_AI_HELD_OUT.length).toBeGreaterThanOrEqual(75);
    const tuning = new Set(SAT_AI_TUNING.map((c) => fold(c.query)));
    expect(SAT_AI_HELD_OUT.filter((c) => tuning.has(fold(c.query)))).toEqual([]);
  });

  it('accepts only codes the catalog has', () => {
    const codes = catalogCodes();
    expect(codes.size).toBeGreaterThan(50_000);
    const unknown = [...SAT_AI_TUNING, ...SAT_AI_HELD_OUT].flatMap((c) =>
      c.codes.filter((id) => !codes.has(id)).map((id) => `${c.query}: ${id}`),
    );
    expect(unknown).toEqual([]);
  });

  it('never teaches the lexicon a word of a held-out query', () => {
    expect(heldOutWordsIn(TRADE_LEXICON)).toEqual([]);
  });

  it('would see a held-out word in a key however it is inflected', () => {
    // "pinté la casa…" and "…los minisplits de una oficina" are held out; "azulejo" is not.
    expect(
      heldOutWordsIn({ casas: 'residencias', 'un minisplit': 'aire acondicionado', azulejo: 'baldosas' }),
    ).toEqual(['casas', 'un minisplit']);
  });
});
