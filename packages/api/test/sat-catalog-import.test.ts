import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BUNDLED_SAT_CATALOG, type DbHandle } from '@folio/db';
import { satCatalogImports, satProducts } from '@folio/db/schema';
import { STARTER_PRODUCTS } from '@folio/db/testing';
import { testDb } from '@folio/db/testing/vitest';
import { count, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSatCatalog, importSatCatalog } from '../src/services/sat/catalog-import';

const HEADER =
  'id,descripcion,incluir_iva_trasladado,incluir_ieps_trasladado,complemento_que_debe_incluir,' +
  'fecha_inicio_vigencia,fecha_fin_vigencia,estimulo_franja_fronteriza,palabras_similares';
const BOM = '\uFEFF';

let handle: DbHandle;
let tmp: string;
beforeAll(async () => {
  handle = await testDb();
  tmp = mkdtempSync(join(tmpdir(), 'folio-catalog-test-'));
});
afterAll(async () => {
  await handle?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

let files = 0;
/** Writes a CSV (BOM + header unless given) to the temp dir; returns its path. */
function csvFile(lines: string[], opts: { header?: string; bom?: boolean; eol?: string } = {}): string {
  const path = join(tmp, `catalog-${++files}.csv`);
  const eol = opts.eol ?? '\r\n';
  const text = [opts.header ?? HEADER, ...lines].join(eol);
  writeFileSync(path, `${opts.bom === false ? '' : BOM}${text}${eol}`, 'utf8');
  return path;
}
/** The same CSV gzipped, as the project ships its catalog. */
function gzFile(lines: string[]): string {
  const path = join(tmp, `catalog-${++files}.csv.gz`);
  writeFileSync(path, gzipSync(`${BOM}${[HEADER, ...lines].join('\r\n')}\r\n`));
  return path;
}

const productCount = async () => (await handle.db.select({ n: count() }).from(satProducts))[0]!.n;
const product = async (id: string) =>
  (await handle.db.select().from(satProducts).where(eq(satProducts.id, id)))[0];

// Ids in 9999xxxx are not SAT codes, so they never collide with the starter set.
const SMALL = [
  '99990001,Servicio de prueba uno,Opcional,Opcional,,2019-01-07,,1,',
  '99990002,"Mesas, sillas y bancos",Sí,No,Carta Porte,2019-01-07,2030-12-31,0,"Muebles, mobiliario de oficina"',
  '99990003,  Producto con espacios  ,Opcional,Opcional,  ,2022-01-01,,1,  ',
];

describe('importSatCatalog', () => {
  it('loads every row with the right columns (BOM skipped, quoted commas kept, empty cells → null)', async () => {
    const before = await productCount();
    const progress: number[] = [];
    const n = await importSatCatalog(handle.db, csvFile(SMALL), (rows) => progress.push(rows));
    expect(n).toBe(3);
    expect(progress).toEqual([3]);
    expect(await productCount()).toBe(before + 3);

    expect(await product('99990001')).toMatchObject({
      descripcion: 'Servicio de prueba uno',
      incluirIvaTrasladado: 'Opcional',
      incluirIepsTrasladado: 'Opcional',
      complementoQueDebeIncluir: null,
      fechaInicioVigencia: '2019-01-07',
      fechaFinVigencia: null,
      estimuloFranjaFronteriza: '1',
      palabrasSimilares: null,
    });
    expect(await product('99990002')).toMatchObject({
      descripcion: 'Mesas, sillas y bancos',
      incluirIvaTrasladado: 'Sí',
      incluirIepsTrasladado: 'No',
      complementoQueDebeIncluir: 'Carta Porte',
      fechaInicioVigencia: '2019-01-07',
      fechaFinVigencia: '2030-12-31',
      estimuloFranjaFronteriza: '0',
      palabrasSimilares: 'Muebles, mobiliario de oficina',
    });
    // Surrounding blanks are trimmed; whitespace-only optional cells count as empty.
    expect(await product('99990003')).toMatchObject({
      descripcion: 'Producto con espacios',
      complementoQueDebeIncluir: null,
      palabrasSimilares: null,
    });
  });

  it('accepts a file without a BOM', async () => {
    const n = await importSatCatalog(
      handle.db,
      csvFile(['99990101,Sin BOM,Opcional,Opcional,,2019-01-07,,0,Algo'], { bom: false }),
    );
    expect(n).toBe(1);
    expect(await product('99990101')).toMatchObject({ descripcion: 'Sin BOM', palabrasSimilares: 'Algo' });
  });

  it('re-importing upserts: the row count stays and changed columns are updated', async () => {
    await importSatCatalog(handle.db, csvFile(SMALL));
    const before = await productCount();
    const changed = [
      '99990001,Servicio de prueba uno (revisado),Sí,Opcional,,2019-01-07,2031-01-01,0,"Prueba, revisión"',
      ...SMALL.slice(1),
    ];
    expect(await importSatCatalog(handle.db, csvFile(changed))).toBe(3);
    expect(await productCount()).toBe(before);
    expect(await product('99990001')).toMatchObject({
      descripcion: 'Servicio de prueba uno (revisado)',
      incluirIvaTrasladado: 'Sí',
      fechaFinVigencia: '2031-01-01',
      estimuloFranjaFronteriza: '0',
      palabrasSimilares: 'Prueba, revisión',
    });
    expect((await product('99990002'))!.descripcion).toBe('Mesas, sillas y bancos');
  });

  it('bumps updated_at on a re-import and keeps the last row of a code repeated in the file', async () => {
    await importSatCatalog(handle.db, csvFile(SMALL));
    const first = (await product('99990001'))!.updatedAt;
    await new Promise((r) => setTimeout(r, 20));
    const repeated = [
      '99990001,Primera versión,Opcional,Opcional,,2019-01-07,,1,',
      '99990001,Segunda versión,Opcional,Opcional,,2019-01-07,,1,',
    ];
    await importSatCatalog(handle.db, csvFile(repeated));
    const row = (await product('99990001'))!;
    expect(row.descripcion).toBe('Segunda versión');
    expect(row.updatedAt.getTime()).toBeGreaterThan(first.getTime());
  });

  it('rejects a file whose header is not the SAT one, naming the expected header, and loads nothing', async () => {
    const before = await productCount();
    const wrong = HEADER.replace('descripcion', 'description');
    const file = csvFile(['99990201,Nada,Opcional,Opcional,,2019-01-07,,0,'], { header: wrong });
    await expect(importSatCatalog(handle.db, file)).rejects.toThrow(`expected ${HEADER}`);
    expect(await product('99990201')).toBeUndefined();
    expect(await productCount()).toBe(before);
  });

  it('rejects a header with the columns in another order', async () => {
    const cols = HEADER.split(',');
    [cols[2], cols[3]] = [cols[3]!, cols[2]!];
    const file = csvFile(['99990202,Nada,Opcional,Opcional,,2019-01-07,,0,'], { header: cols.join(',') });
    await expect(importSatCatalog(handle.db, file)).rejects.toThrow(`expected ${HEADER}`);
  });

  it.each([
    ['7 digits', '9999030'],
    ['9 digits', '999903001'],
    ['letters', '9999O301'],
  ])('rejects an id that is not 8 digits (%s), naming its line', async (_, id) => {
    const file = csvFile([
      '99990301,Uno,Opcional,Opcional,,2019-01-07,,0,',
      '99990302,Dos,Opcional,Opcional,,2019-01-07,,0,',
      `${id},Tres,Opcional,Opcional,,2019-01-07,,0,`,
    ]);
    // Header is line 1, so the third record is line 4.
    await expect(importSatCatalog(handle.db, file)).rejects.toThrow(
      `line 4: id must be 8 digits, got "${id}"`,
    );
  });

  it('names the file line of a bad id even after blank lines and a quoted multi-line field', async () => {
    // LF line ends: csv-parse counts a CRLF inside quotes as two lines.
    const file = csvFile(
      [
        '99990311,Uno,Opcional,Opcional,,2019-01-07,,0,',
        '',
        '99990312,"Dos',
        'en dos líneas",Opcional,Opcional,,2019-01-07,,0,',
        '',
        'x9990313,Tres,Opcional,Opcional,,2019-01-07,,0,',
      ],
      { eol: '\n' },
    );
    await expect(importSatCatalog(handle.db, file)).rejects.toThrow(
      'line 7: id must be 8 digits, got "x9990313"',
    );
  });

  it('names the file line of a bad id after blank lines in a CRLF file', async () => {
    const file = csvFile([
      '',
      '99990321,Uno,Opcional,Opcional,,2019-01-07,,0,',
      '',
      '',
      'x9990322,Dos,Opcional,Opcional,,2019-01-07,,0,',
    ]);
    await expect(importSatCatalog(handle.db, file)).rejects.toThrow(
      'line 6: id must be 8 digits, got "x9990322"',
    );
  });

  it('rejects an empty descripcion, naming its line', async () => {
    const file = csvFile(['99990401,,Opcional,Opcional,,2019-01-07,,0,']);
    await expect(importSatCatalog(handle.db, file)).rejects.toThrow('line 2: descripcion is empty');
  });

  it('reports running totals to onProgress after each batch and returns the total', async () => {
    const lines = Array.from(
      { length: 2345 },
      (_, i) => `9998${String(i).padStart(4, '0')},Producto ${i},Opcional,Opcional,,2019-01-07,,1,`,
    );
    const progress: number[] = [];
    const n = await importSatCatalog(handle.db, csvFile(lines), (rows) => progress.push(rows));
    expect(n).toBe(2345);
    expect(progress).toEqual([1000, 2000, 2345]);
    const [loaded] = await handle.db
      .select({ n: count() })
      .from(satProducts)
      .where(like(satProducts.id, '9998%'));
    expect(loaded!.n).toBe(2345);
  });

  it('names the right line for a bad id past the first batch', async () => {
    const lines = Array.from(
      { length: 1500 },
      (_, i) => `9997${String(i).padStart(4, '0')},Producto ${i},Opcional,Opcional,,2019-01-07,,1,`,
    );
    lines[1200] = 'bad-id,Producto malo,Opcional,Opcional,,2019-01-07,,1,';
    await expect(importSatCatalog(handle.db, csvFile(lines))).rejects.toThrow('line 1202:');
  });
});

describe('ensureSatCatalog', () => {
  const starterIds = STARTER_PRODUCTS.map(([id]) => id);

  it("loads the starter set into an empty sat_products and reports 'starter'", async () => {
    await handle.db.delete(satProducts);
    expect(await ensureSatCatalog(handle.db)).toEqual({ kind: 'starter', rows: STARTER_PRODUCTS.length });
    expect(await productCount()).toBe(STARTER_PRODUCTS.length);
    const rows = await handle.db.select().from(satProducts).where(inArray(satProducts.id, starterIds));
    expect(rows.map((r) => r.id).sort()).toEqual([...starterIds].sort());
    expect(await product('43211508')).toMatchObject({
      descripcion: 'Computadores personales',
      estimuloFranjaFronteriza: '1',
      palabrasSimilares: 'Computadoras personales o laptop, Equipo de cómputo',
      fechaFinVigencia: null,
    });
  });

  it("keeps a loaded catalog: reports 'existing' with its size and changes nothing, given no CSV or the same one", async () => {
    await handle.db.delete(satProducts);
    const file = csvFile(SMALL);
    await importSatCatalog(handle.db, file);
    const before = await handle.db.select().from(satProducts);

    expect(await ensureSatCatalog(handle.db)).toEqual({ kind: 'existing', rows: 3 });
    expect(await ensureSatCatalog(handle.db, file)).toEqual({ kind: 'existing', rows: 3 });
    expect(await ensureSatCatalog(handle.db, csvFile(SMALL))).toEqual({ kind: 'existing', rows: 3 });
    expect(await handle.db.select().from(satProducts)).toEqual(before);
  });

  it('imports a CSV whose content differs from the last one imported (a newer catalog at start-up)', async () => {
    await handle.db.delete(satProducts);
    await importSatCatalog(handle.db, csvFile(SMALL));
    const newer = csvFile([
      ...SMALL.slice(0, 2),
      '99990501,Nuevo en el catálogo,Opcional,Opcional,,2019-01-07,,0,',
    ]);

    expect(await ensureSatCatalog(handle.db, newer)).toEqual({ kind: 'csv', rows: 3 });
    expect(await product('99990501')).toMatchObject({ descripcion: 'Nuevo en el catálogo', removedAt: null });
    // The code the newer file lacks is kept (favorites and CFDIs name it) but marked removed.
    expect((await product('99990003'))?.removedAt).toBeInstanceOf(Date);
    expect(await ensureSatCatalog(handle.db, newer)).toEqual({ kind: 'existing', rows: 4 });
  });

  it("loads the given CSV into an empty sat_products and reports 'csv' with the row count", async () => {
    await handle.db.delete(satProducts);
    expect(await ensureSatCatalog(handle.db, csvFile(SMALL))).toEqual({ kind: 'csv', rows: 3 });
    expect(await productCount()).toBe(3);
    expect(await product('43211508')).toBeUndefined(); // no starter rows mixed in
  });
});

describe('ensureSatCatalog with the catalog shipped in the project', () => {
  const fresh = async () => {
    await handle.db.delete(satProducts);
    await handle.db.delete(satCatalogImports);
  };

  it("loads the shipped (gzipped) file into an empty sat_products and reports 'bundled'", async () => {
    await fresh();
    expect(await ensureSatCatalog(handle.db, undefined, gzFile(SMALL))).toEqual({ kind: 'bundled', rows: 3 });
    expect(await product('99990002')).toMatchObject({ descripcion: 'Mesas, sillas y bancos' });
    expect(await product('43211508')).toBeUndefined(); // not the starter set
  });

  it('replaces a starter-only catalog (a database from before the catalog shipped): no file was ever imported', async () => {
    await fresh();
    await ensureSatCatalog(handle.db);
    expect(await ensureSatCatalog(handle.db, undefined, gzFile(SMALL))).toEqual({ kind: 'bundled', rows: 3 });
    expect((await product('43211508'))?.removedAt).toBeInstanceOf(Date); // starter code absent from the file
  });

  it('is loaded once: a later start keeps what is there, even a newer file imported since with catalog:import', async () => {
    await fresh();
    const shipped = gzFile(SMALL);
    await ensureSatCatalog(handle.db, undefined, shipped);
    expect(await ensureSatCatalog(handle.db, undefined, shipped)).toEqual({ kind: 'existing', rows: 3 });
    const newer = csvFile([...SMALL, '99990601,Más nuevo,Opcional,Opcional,,2019-01-07,,0,']);
    await importSatCatalog(handle.db, newer);
    expect(await ensureSatCatalog(handle.db, undefined, shipped)).toEqual({ kind: 'existing', rows: 4 });
    expect(await product('99990601')).toMatchObject({ removedAt: null });
  });

  it('SAT_CATALOG_CSV wins over the shipped file; the same catalog gzipped or not counts as the same file', async () => {
    await fresh();
    const plain = csvFile(SMALL);
    expect(
      await ensureSatCatalog(handle.db, plain, gzFile(['99990701,Otro,Opcional,Opcional,,2019-01-07,,0,'])),
    ).toEqual({ kind: 'csv', rows: 3 });
    expect(await product('99990701')).toBeUndefined();
    await fresh();
    await ensureSatCatalog(handle.db, undefined, gzFile(SMALL));
    expect(await ensureSatCatalog(handle.db, plain)).toEqual({ kind: 'existing', rows: 3 });
  });
});

describe('the full SAT catalog shipped in packages/db/data', () => {
  it('imports all 52,514 rows of c_claveprodserv.csv.gz', async () => {
    await handle.db.delete(satProducts);
    const progress: number[] = [];
    expect(await importSatCatalog(handle.db, BUNDLED_SAT_CATALOG, (rows) => progress.push(rows))).toBe(
      52_514,
    );
    expect(await productCount()).toBe(52_514);
    expect(progress.at(-1)).toBe(52_514);
    expect(progress).toHaveLength(53);
    expect(await product('43211508')).toMatchObject({ descripcion: 'Computadores personales' });
    expect(await product('01010101')).toMatchObject({
      descripcion: 'No existe en el catálogo',
      palabrasSimilares: 'Público en general',
    });
  }, 600_000);
});
