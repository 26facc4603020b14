import { describe, expect, it } from 'vitest';
import { buildMeaningModel, type CatalogEntry } from './model';
import { analyzeQuery, rankByMeaning } from './query';

const entry = (id: string, descripcion: string): CatalogEntry => ({
  id,
  descripcion,
  palabrasSimilares: null,
  fechaFinVigencia: null,
});

const model = buildMeaningModel(
  [
    entry('10101511', 'Cerdos vivos'),
    entry('50112004', 'Carne de cerdo'),
    entry('70122000', 'Granja de cerdos y gallinas'),
    entry('76111501', 'Limpieza de pisos sucios'),
    entry('76111502', 'Limpieza de trapos sucios'),
    entry('25161507', 'Bicicletas'),
    entry('25161508', 'Refacciones para bicicletas'),
    entry('84111506', 'Servicios de contabilidad'),
    entry('60121000', 'Calendarios del año'),
    entry('10151603', 'Echeveria en maceta'),
    entry('70122100', 'Servicios de pastoreo'),
    entry('10101512', 'Gorrinos de engorda'),
  ],
  {
    // A thesaurus of one word the catalog lacks, with a sense for pigs and one for dirt, and of one
    // it barely knows (a single code).
    senses: [
      ['cochino', 'sucio', 'cerdo'],
      ['cochino', 'cerdo', 'marrano'],
      ['gorrino', 'cerdo'],
    ],
  },
);

/** The readings the query gives `word`: catalog words other than the word itself. */
const readings = (query: string, word: string) =>
  analyzeQuery(model, query)
    .filter((t) => t.word === word && t.via)
    .map((t) => t.text);

describe('the readings of a word the catalog does not know', () => {
  it('reads a plural Snowball leaves whole as its singular', () => {
    expect(readings('calendario de años', 'años')).toEqual(['año']);
  });

  it('reads a prefixed word as the word after the prefix', () => {
    expect(readings('multiservicios', 'multiservicios')).toEqual(['servicios']);
  });

  it('reads a clipping, plural or not, as the catalog word it begins', () => {
    expect(readings('vendo bicis', 'bicis')).toEqual(['bicicletas']);
  });

  it('does not read a word with a written accent (a verb: "eché") or of six letters or more ("pastor") as a clipping', () => {
    expect(readings('eché', 'eché')).toEqual([]);
    expect(readings('pastor', 'pastor')).toEqual([]);
  });

  it('reads it through its thesaurus synonyms, the sense the rest of the query fits', () => {
    // With "granja" the pigs' sense: cerdo kept, sucio (far from granja) dropped.
    expect(readings('granja de cochinos', 'cochinos')).toEqual(['cerdos']);
    expect(readings('limpieza de lo cochino', 'cochino')).toEqual(['sucios']);
    // Alone, the thesaurus' own order: cerdo (in both senses) before sucio.
    expect(readings('cochinos', 'cochinos')).toEqual(['cerdos', 'sucios']);
  });

  it('reads a word the catalog barely knows through its synonyms too, at half the weight', () => {
    const terms = analyzeQuery(model, 'granja de gorrinos');
    expect(terms.find((t) => t.word === 'gorrinos' && !t.via)!.weight).toBe(1);
    const cerdo = terms.find((t) => t.word === 'gorrinos' && t.via === 'cerdos');
    // 0.5 × 0.6 at best (the only reading, scaled to it).
    expect(cerdo?.weight).toBeCloseTo(0.5 * 0.6);
  });

  it('ranks the catalog by those readings, below the word itself', () => {
    const terms = analyzeQuery(model, 'granja de cochinos');
    expect(terms.find((t) => t.text === 'cerdos')!.weight).toBeLessThan(1);
    const best = rankByMeaning(model, terms, 1)[0]!;
    expect(model.ids[best.doc]).toBe('70122000');
  });
});
