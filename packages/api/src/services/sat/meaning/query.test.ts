import { describe, expect, it } from 'vitest';
import { buildMeaningModel } from './model';
import { analyzeQuery, rankByMeaning } from './query';

const model = buildMeaningModel([
  {
    id: '78181500',
    descripcion: 'Servicios de mantenimiento y reparación de vehículos',
    palabrasSimilares: 'Servicio de taller mecánico',
    fechaFinVigencia: null,
  },
  {
    id: '80131501',
    descripcion: 'Arrendamiento de residencias',
    palabrasSimilares: 'Renta de casa habitación',
    fechaFinVigencia: null,
  },
  { id: '50202201', descripcion: 'Cerveza', palabrasSimilares: null, fechaFinVigencia: null },
  { id: '90101700', descripcion: 'Servicios de cafetería', palabrasSimilares: null, fechaFinVigencia: null },
]);
const best = (query: string) => model.ids[rankByMeaning(model, analyzeQuery(model, query), 1)[0]!.doc];

describe('query analysis', () => {
  it('reads a colloquial word through the lexicon, keeping where it came from', () => {
    const terms = analyzeQuery(model, 'renta de un depa');
    expect(terms).toContainEqual(
      expect.objectContaining({ stem: 'arrend', word: 'depa', via: expect.any(String) }),
    );
    expect(best('renta de un depa')).toBe('80131501');
  });

  it('finds a lexicon entry from another form of its word (plural, accents)', () => {
    expect(analyzeQuery(model, 'afinación de los autos').some((t) => t.word === 'autos' && t.via)).toBe(true);
    expect(best('un cartón de cheves')).toBe('50202201');
  });

  it('spells an unaccented word as the catalog does before stemming it', () => {
    expect(analyzeQuery(model, 'cafeteria')[0]?.stem).toBe(analyzeQuery(model, 'cafetería')[0]?.stem);
    expect(best('desayunos en la cafeteria')).toBe('90101700');
  });

  it('drops function words and the verbs of a sentence about one’s business', () => {
    expect(analyzeQuery(model, 'le vendo a una').length).toBe(0);
  });
});

describe('the model kept in bytes', () => {
  it('keeps each code a unit vector within 1 %: a row of bytes times its scale', () => {
    // Each component is off by at most half a step, 1/254 of the row's largest (itself at most 1):
    // over this model's 3 dimensions the length moves by at most sqrt(3)/254 ≈ 0.7 %.
    expect(model.dims).toBe(3);
    for (let d = 0; d < model.ids.length; d++) {
      let sum = 0;
      for (let j = 0; j < model.dims; j++)
        sum += (model.docVectors[d * model.dims + j]! * model.docScale[d]!) ** 2;
      expect(Math.abs(Math.sqrt(sum) - 1)).toBeLessThan(0.01);
    }
  });

  it('flags the service segments (70–94) for the intent of a sentence', () => {
    expect(Array.from(model.service)).toEqual([1, 1, 0, 1]);
  });
});
