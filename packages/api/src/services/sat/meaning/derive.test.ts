import { describe, expect, it } from 'vitest';
import { verbRoots } from './derive';
import { intentFactor, intentOf } from './intent';
import { buildMeaningModel } from './model';
import { analyzeQuery, rankByMeaning } from './query';
import { stem, words } from './text';

const model = buildMeaningModel(
  [
    ['31211501', 'Pinturas de esmalte'],
    ['72151301', 'Servicio de pintura residencial y de casas'],
    ['72152204', 'Servicio de colocación de baldosas de cerámica'],
    ['72153204', 'Servicio de impermeabilización'],
    ['76111501', 'Servicios de limpieza de edificios'],
    ['82111804', 'Servicios de traducción escrita'],
    ['95141606', 'Cocina para casa'],
  ].map(([id, descripcion]) => ({
    id: id!,
    descripcion: descripcion!,
    palabrasSimilares: null,
    fechaFinVigencia: null,
  })),
);
const read = (query: string) => analyzeQuery(model, query).filter((t) => t.via);
const best = (query: string) =>
  model.ids[rankByMeaning(model, analyzeQuery(model, query), 1, intentOf(words(query)))[0]!.doc];

describe('verbs read as the catalog’s nouns of their root', () => {
  it('takes first-person and infinitive endings off, with Spanish spelling changes before -e', () => {
    expect(verbRoots('pinté')).toEqual(['pint']);
    expect(verbRoots('limpio')).toEqual(['limpi']);
    expect(verbRoots('coloqué')).toEqual(['coloc']); // colocar
    expect(verbRoots('impermeabilicé')).toEqual(['impermeabilic', 'impermeabiliz']); // impermeabilizar
    expect(verbRoots('traduzco')).toEqual(['traduc']); // traducir
    expect(verbRoots('casa')).toEqual([]); // no verb ending
  });

  it('adds the noun the catalog uses for the doing ("pinté" → pintura, "coloqué" → colocación)', () => {
    expect(read('pinté').map((t) => t.stem)).toContain('pintur');
    expect(read('coloqué').map((t) => t.stem)).toContain('coloc');
    expect(read('impermeabilicé').map((t) => t.stem)).toContain('impermeabiliz');
    expect(read('traduzco').map((t) => t.stem)).toContain('traduccion');
    expect(best('impermeabilicé un techo')).toBe('72153204');
  });
});

describe('diminutives read as the word they diminish', () => {
  it('finds "café" from "cafecito" and "pastel" from "pastelitos"', () => {
    const catalog = buildMeaningModel(
      [
        ['50201706', 'Café'],
        ['50181900', 'Pasteles'],
      ].map(([id, descripcion]) => ({
        id: id!,
        descripcion: descripcion!,
        palabrasSimilares: null,
        fechaFinVigencia: null,
      })),
    );
    const stems = (q: string) => analyzeQuery(catalog, q).map((t) => t.stem);
    expect(stems('cafecito')).toContain(stem('café'));
    expect(stems('pastelitos')).toContain(stem('pasteles'));
    expect(stems('cafetería')).not.toContain(stem('café')); // not a diminutive
  });
});

describe('a sentence about one’s work asks for a service', () => {
  it('tells a service from a sale or a purchase', () => {
    expect(intentOf(words('pinté la casa de un cliente'))).toBe('service'); // preterite, first person
    expect(intentOf(words('le limpio las oficinas'))).toBe('service'); // present opening the sentence
    expect(intentOf(words('clases de inglés'))).toBe('service'); // a service noun
    expect(intentOf(words('le di servicio a la troca'))).toBe('service'); // an irregular first person
    expect(intentOf(words('vendo comidas corridas'))).toBeUndefined(); // selling: goods or a service
    expect(intentOf(words('compré diésel'))).toBeUndefined(); // buying: either
    expect(intentOf(words('pintura de esmalte'))).toBeUndefined();
  });

  it('ranks codes outside the service segments 70–94 lower, not out', () => {
    expect(intentFactor('service', '72151301')).toBe(1);
    expect(intentFactor('service', '31211501')).toBe(0.6);
    expect(intentFactor('service', '95141606')).toBe(0.6);
    expect(intentFactor(undefined, '31211501')).toBe(1);
    expect(best('pinté la casa')).toBe('72151301');
    expect(best('pinturas de esmalte')).toBe('31211501');
  });
});

describe('codes holding more of the query’s concepts', () => {
  it('rank above a shorter code holding one of them', () => {
    const catalog = buildMeaningModel(
      [
        ['11121600', 'Madera'],
        ['11121610', 'Maderas duras'],
        ['56101500', 'Muebles de sala hechos en madera, roble o pino tallado'],
        ['56101700', 'Muebles de oficina'],
        ['56101800', 'Muebles para bebé'],
        ['30171504', 'Puertas de madera'],
      ].map(([id, descripcion]) => ({
        id: id!,
        descripcion: descripcion!,
        palabrasSimilares: null,
        fechaFinVigencia: null,
      })),
    );
    const order = rankByMeaning(catalog, analyzeQuery(catalog, 'muebles de madera'), 6).map(
      (r) => catalog.ids[r.doc],
    );
    // The cosine alone puts "Madera" (one word, all of it matching) above the furniture of wood.
    expect(order.indexOf('56101500')).toBeLessThan(order.indexOf('11121600'));
  });
});
