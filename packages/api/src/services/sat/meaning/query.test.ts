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
