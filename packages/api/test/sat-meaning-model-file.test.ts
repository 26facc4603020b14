import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DbHandle } from '@folio/db';
import { satCatalogVersion } from '@folio/db/queries/catalogs';
import { testDb } from '@folio/db/testing/vitest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importSatCatalog } from '../src/services/sat/catalog-import';
import { readMeaningModel } from '../src/services/sat/meaning/store';

// The search by meaning's model is built at catalog import (and by a first start) into a file that
// later starts read instead of building it again (issue 30). A fresh import of the module that keeps
// models in memory stands for a new process.

let handle: DbHandle;
let dir: string;
beforeAll(async () => {
  handle = await testDb();
  dir = mkdtempSync(join(tmpdir(), 'folio-meaning-file-'));
});
afterAll(async () => {
  await handle?.close();
  rmSync(dir, { recursive: true, force: true });
});

const freshProcess = async () => {
  vi.resetModules();
  return import('../src/services/sat/meaning/cache');
};

describe('the meaning model file', () => {
  it('is written by the first preparation and read by the next start, with the same model', async () => {
    const file = join(dir, 'model.bin');
    const first = await freshProcess();
    expect(await first.prepareMeaningModel(handle.db, file)).toBe('built');
    expect(existsSync(file)).toBe(true);
    const built = await first.meaningModelFor(handle.db);

    const next = await freshProcess();
    expect(await next.prepareMeaningModel(handle.db, file)).toBe('file');
    expect(await next.meaningModelFor(handle.db)).toEqual(built);
  });

  it('goes stale with a catalog import: the next preparation builds and writes the new catalog', async () => {
    const file = join(dir, 'import.bin');
    await (await freshProcess()).prepareMeaningModel(handle.db, file);
    const csv = join(dir, 'catalog.csv');
    writeFileSync(
      csv,
      'id,descripcion,incluir_iva_trasladado,incluir_ieps_trasladado,complemento_que_debe_incluir,' +
        'fecha_inicio_vigencia,fecha_fin_vigencia,estimulo_franja_fronteriza,palabras_similares\n' +
        '99990001,Servicio de impermeabilización de azoteas,Opcional,Opcional,,2019-01-07,,0,\n',
    );
    await importSatCatalog(handle.db, csv);
    const version = await satCatalogVersion(handle.db);
    expect(readMeaningModel(file, version)).toBeUndefined();

    const next = await freshProcess();
    expect(await next.prepareMeaningModel(handle.db, file)).toBe('built');
    expect(readMeaningModel(file, version)?.ids).toEqual(['99990001']);
  });
});
