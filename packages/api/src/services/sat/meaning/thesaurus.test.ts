import { describe, expect, it } from 'vitest';
import { fold, stem } from './text';
import { readThesaurus, relatedTerms } from './thesaurus';

/** A catalog vocabulary of these words' stems, numbered in order, and the words themselves. */
const catalogOf = (...words: string[]) =>
  [new Map(words.map((w, i) => [stem(w), i])), new Set(words.map(fold))] as const;

describe('the thesaurus read into the meaning model', () => {
  it('reads a word the catalog lacks as its synonyms the catalog knows, and no word the catalog knows', () => {
    const catalog = catalogOf('nevera', 'coche');
    const related = relatedTerms(...catalog, [
      ['refrigerador', 'nevera', 'frigorífico'],
      ['automóvil', 'coche', 'carro'],
    ]);
    expect(related.get(stem('refrigerador'))?.terms).toEqual([0]);
    expect(related.get(stem('automóvil'))?.terms).toEqual([1]);
    expect(related.has(stem('nevera'))).toBe(false); // the catalog knows it: the word stands for itself
  });

  it('reads the thesaurus both ways: a word listed only as a synonym gets the entry word and its fellows', () => {
    const related = relatedTerms(...catalogOf('fontanería', 'tubería'), [
      ['fontanería', 'plomería', 'instalación'],
      ['cañería', 'tubería', 'plomería'],
    ]);
    // "plomería" is no entry word: it is read through both senses that list it.
    expect(related.get(stem('plomería'))?.terms.sort()).toEqual([0, 1]);
  });

  it('weighs a synonym by how many senses name it and how early, the best at 1', () => {
    const related = relatedTerms(...catalogOf('cerdo', 'sucio', 'marrano'), [
      ['cochino', 'sucio', 'cerdo'],
      ['cochino', 'cerdo', 'marrano'],
    ]);
    const { terms, weights } = related.get(stem('cochino'))!;
    // A synonym in place p after the entry word weighs 1/√(1+p). cerdo: 1/√2 (second in the first
    // sense) + 1/√1 (first in the second) = 1.707; sucio: 1/√1 = 1; marrano: 1/√2 = 0.707.
    // Scaled by the best: 1, 1/1.707 = 0.59, 0.707/1.707 = 0.41.
    expect(terms).toEqual([0, 1, 2]);
    expect(weights).toEqual([1, 0.59, 0.41]);
  });

  it('widens a word the catalog barely knows (in at most 5 codes), not one it knows well', () => {
    const [vocabulary, written] = catalogOf('marrano', 'cerdo', 'puerco');
    const senses = [['puerco', 'cerdo', 'marrano']];
    // Codes holding each term: marrano 1, cerdo 40, puerco 6.
    const docs = [1, 40, 6];
    const related = relatedTerms(vocabulary, written, senses, (t) => docs[t]!);
    // puerco (the entry word, 1) before cerdo (second in the sense, 1/√2); never marrano itself.
    expect(related.get(stem('marrano'))?.terms).toEqual([2, 1]);
    expect(related.has(stem('puerco'))).toBe(false); // 6 codes: known well enough
    expect(related.has(stem('cerdo'))).toBe(false);
  });

  it('counts a synonym only when the catalog writes that word, not just its stem', () => {
    // "combar" and "combo" share Snowball's stem "comb"; the catalog writes only "combo".
    const related = relatedTerms(...catalogOf('combo', 'cerdos'), [['engordar', 'combar', 'cebar', 'cerdo']]);
    expect(related.get(stem('engordar'))?.terms).toEqual([1]); // cerdo, written as "cerdos"
  });

  it('ships LibreOffice’s Spanish thesaurus: tens of thousands of senses, an entry word and synonyms each', () => {
    const senses = readThesaurus();
    expect(senses.length).toBeGreaterThan(40_000);
    expect(senses.every((s) => s.length >= 2 && s.every(Boolean))).toBe(true);
    expect(senses.find((s) => s[0] === 'computadora')).toContain('ordenador');
  });
});
