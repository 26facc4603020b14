import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMeaningModel } from './model';
import { analyzeQuery, rankByMeaning } from './query';
import { readMeaningModel, writeMeaningModel } from './store';

const dir = mkdtempSync(join(tmpdir(), 'folio-meaning-'));
afterAll(() => rmSync(dir, { recursive: true }));

const model = buildMeaningModel([
  {
    id: '01010101',
    descripcion: 'No existe en el catálogo',
    palabrasSimilares: null,
    fechaFinVigencia: null,
  },
  {
    id: '72151300',
    descripcion: 'Servicios de pintura e instalación de papel de colgadura',
    palabrasSimilares: null,
    fechaFinVigencia: null,
  },
  {
    id: '72151301',
    descripcion: 'Servicio de pintura residencial',
    palabrasSimilares: null,
    fechaFinVigencia: null,
  },
  {
    id: '80131501',
    descripcion: 'Arrendamiento de residencias',
    palabrasSimilares: 'Renta de casa habitación',
    fechaFinVigencia: '2024-01-01',
  },
  { id: '50202201', descripcion: 'Cerveza', palabrasSimilares: null, fechaFinVigencia: null },
]);

describe('the meaning model file', () => {
  it('reads back the model it was written from, for the same catalog version', () => {
    const file = join(dir, 'same.bin');
    writeMeaningModel(file, '5:2026-11-26', model);
    const read = readMeaningModel(file, '5:2026-11-26');
    expect(read).toEqual(model);
    // The same answers, scores included: leading zeros of codes and expired flags survive.
    const query = 'pinté la casa que rento';
    expect(rankByMeaning(read!, analyzeQuery(read!, query), 5)).toEqual(
      rankByMeaning(model, analyzeQuery(model, query), 5),
    );
    expect(read?.ids[0]).toBe('01010101');
  });

  it('reads as nothing for another catalog version, a missing file or another format', () => {
    const file = join(dir, 'other.bin');
    writeMeaningModel(file, 'v1', model);
    expect(readMeaningModel(file, 'v2')).toBeUndefined();
    expect(readMeaningModel(join(dir, 'missing.bin'), 'v1')).toBeUndefined();
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, 'not a model');
    expect(readMeaningModel(junk, 'v1')).toBeUndefined();
  });
});
