import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { parse } from 'csv-parse';
import { and, count, desc, inArray, isNull, sql } from 'drizzle-orm';
import { changesOf, removalOf } from './catalog-changes';
import { type Db, type Executor, rowsOf } from './client';
import { pruneSatLexicon } from './queries/catalogs';
import { recordSatAlerts } from './queries/sat-alerts';
import { satCatalogImports, satFavorites, satProducts } from './schema';
import { STARTER_PRODUCTS } from './seed/starter-products';

type ProductRow = typeof satProducts.$inferInsert;

const HEADER = [
  'id',
  'descripcion',
  'incluir_iva_trasladado',
  'incluir_ieps_trasladado',
  'complemento_que_debe_incluir',
  'fecha_inicio_vigencia',
  'fecha_fin_vigencia',
  'estimulo_franja_fronteriza',
  'palabras_similares',
] as const;
const BATCH = 1000;

/**
 * The full c_ClaveProdServ shipped with the project (gzipped; provenance in data/SOURCES.md): what a
 * server loads on its first start. Resolved through the package so the bundled server finds it too.
 */
export const BUNDLED_SAT_CATALOG = createRequire(import.meta.url).resolve(
  '@folio/db/data/c_claveprodserv.csv.gz',
);

/** The CSV's text, gunzipped when the file name ends in `.gz`. */
function readCatalog(file: string): Readable {
  const raw = createReadStream(file);
  return file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
}

const orNull = (v: string | undefined) => (v?.trim() ? v.trim() : null);

function toRow(r: Record<(typeof HEADER)[number], string>, line: number): ProductRow {
  if (!/^\d{8}$/.test(r.id)) throw new Error(`line ${line}: id must be 8 digits, got "${r.id}"`);
  if (!r.descripcion?.trim()) throw new Error(`line ${line}: descripcion is empty`);
  return {
    id: r.id,
    descripcion: r.descripcion.trim(),
    incluirIvaTrasladado: r.incluir_iva_trasladado,
    incluirIepsTrasladado: r.incluir_ieps_trasladado,
    complementoQueDebeIncluir: orNull(r.complemento_que_debe_incluir),
    fechaInicioVigencia: r.fecha_inicio_vigencia,
    fechaFinVigencia: orNull(r.fecha_fin_vigencia),
    estimuloFranjaFronteriza: r.estimulo_franja_fronteriza,
    palabrasSimilares: orNull(r.palabras_similares),
  };
}

const COLUMNS = HEADER.map((c) => [c, c.replace(/_(\w)/g, (_, ch: string) => ch.toUpperCase())] as const);
const columnList = sql.raw(HEADER.join(', '));

/**
 * One statement per batch with the rows as a single JSON parameter (json_populate_recordset), not
 * nine bound parameters per row: binding 9,000 parameters per statement made the first start's
 * import of the 52,514 codes take twice as long.
 */
async function upsert(db: Executor, rows: ProductRow[]) {
  const json = JSON.stringify(
    rows.map((r) => Object.fromEntries(COLUMNS.map(([c, k]) => [c, r[k as keyof ProductRow] ?? null]))),
  );
  await db.execute(sql`
    insert into ${satProducts} (${columnList})
    select ${columnList} from json_populate_recordset(null::sat_products, ${json}::json)
    on conflict (id) do update set
      ${sql.raw(
        HEADER.filter((c) => c !== 'id')
          .map((c) => `${c} = excluded.${c}`)
          .join(', '),
      )},
      updated_at = now(), removed_at = null`);
}

/** The columns an alert compares (catalog-changes.ts). */
const WATCHED_COLUMNS = {
  id: satProducts.id,
  descripcion: satProducts.descripcion,
  incluirIvaTrasladado: satProducts.incluirIvaTrasladado,
  incluirIepsTrasladado: satProducts.incluirIepsTrasladado,
  complementoQueDebeIncluir: satProducts.complementoQueDebeIncluir,
  fechaFinVigencia: satProducts.fechaFinVigencia,
};

/** Stored rows of these codes that someone has among their favorites: what alerts compare against. */
const favorited = (codes?: string[]) =>
  and(
    codes ? inArray(satProducts.id, codes) : undefined,
    sql`exists (select 1 from ${satFavorites} where ${satFavorites.clave} = ${satProducts.id})`,
  );

/**
 * Loads a c_ClaveProdServ CSV (header as in SAT's sheet) in batches, upserting, so it can be re-run.
 * A re-import compares each favorited code's stored row with the file's and records an alert per
 * change for its owners, in the batch's own transaction (a run cut short loses no alert); codes the
 * file no longer holds are marked removed (kept: favorites and CFDIs still name them; searches no
 * longer see them, nor the lexicon their stems), with an `eliminada` alert. The run is recorded with the file's SHA-256 (start-up re-imports another file).
 * `onProgress` receives the running row count after each batch.
 */
export async function importSatCatalog(
  db: Db,
  file: string,
  onProgress: (rows: number) => void = () => {},
): Promise<number> {
  const sha256 = await fileSha256(file);
  // Every row the file holds gets updated_at = now() of a later transaction than this one's.
  const [clock] = rowsOf<{ started: string }>(await db.execute(sql`select now()::text as started`));
  const started = sql`${clock?.started}::timestamptz`;
  const parser = readCatalog(file).pipe(
    parse({ bom: true, columns: (h: string[]) => checkHeader(h), skip_empty_lines: true, info: true }),
  );
  // Keyed by code: a code repeated in the file keeps its last row (one upsert may not touch a row twice).
  let batch = new Map<string, ProductRow>();
  let total = 0;
  let alerts = 0;
  const flush = async () => {
    const rows = [...batch.values()];
    await db.transaction(async (tx) => {
      const stored = await tx
        .select(WATCHED_COLUMNS)
        .from(satProducts)
        .where(favorited([...batch.keys()]));
      alerts += await recordSatAlerts(
        tx,
        stored.flatMap((before) => changesOf(before, batch.get(before.id) as ProductRow)),
      );
      await upsert(tx, rows);
    });
    total += batch.size;
    batch = new Map();
    onProgress(total);
  };
  // `info.lines`: the file line the record ends on, blank lines and quoted line breaks included.
  for await (const { record, info } of parser) {
    const row = toRow(record, info.lines);
    batch.set(row.id, row);
    if (batch.size === BATCH) await flush();
  }
  if (batch.size) await flush();
  await db.transaction(async (tx) => {
    const gone = and(isNull(satProducts.removedAt), sql`${satProducts.updatedAt} < ${started}`);
    const removedFavorites = await tx.select(WATCHED_COLUMNS).from(satProducts).where(and(gone, favorited()));
    alerts += await recordSatAlerts(tx, removedFavorites.map(removalOf));
    const removed = await tx
      .update(satProducts)
      .set({ removedAt: sql`now()` })
      .where(gone)
      .returning({ id: satProducts.id });
    if (removed.length) await pruneSatLexicon(tx);
    await tx
      .insert(satCatalogImports)
      .values({ id: randomUUID(), sha256, rows: total, removed: removed.length, alerts });
  });
  return total;
}

async function lastImportSha(db: Db): Promise<string | undefined> {
  const [last] = await db
    .select({ sha256: satCatalogImports.sha256 })
    .from(satCatalogImports)
    .orderBy(desc(satCatalogImports.finishedAt))
    .limit(1);
  return last?.sha256;
}

/** Of the CSV text: the same catalog gzipped or not is the same file. */
async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(readCatalog(file), hash);
  return hash.digest('hex');
}

function checkHeader(h: string[]): string[] {
  const got = h.map((c) => c.trim());
  if (HEADER.some((c, i) => got[i] !== c)) {
    throw new Error(`unexpected CSV header: expected ${HEADER.join(',')}, got ${got.join(',')}`);
  }
  return got;
}

export type CatalogSource = { kind: 'existing' | 'csv' | 'bundled' | 'starter'; rows: number };

/**
 * At start-up: load `csvPath` when given and it is not the file last imported (a newer catalog:
 * favorites get their alerts); else load `bundled` (the catalog shipped with the project) when no
 * catalog file was ever imported, an empty table or one holding only the starter set; else keep a
 * loaded catalog; else load the starter set (test databases: no `bundled`).
 */
export async function ensureSatCatalog(db: Db, csvPath?: string, bundled?: string): Promise<CatalogSource> {
  const [row] = await db.select({ n: count() }).from(satProducts);
  const loaded = row?.n ?? 0;
  const last = await lastImportSha(db);
  if (csvPath && (loaded === 0 || last !== (await fileSha256(csvPath)))) {
    return { kind: 'csv', rows: await importSatCatalog(db, csvPath) };
  }
  if (bundled && !csvPath && !last) return { kind: 'bundled', rows: await importSatCatalog(db, bundled) };
  if (loaded > 0) return { kind: 'existing', rows: loaded };
  await upsert(
    db,
    STARTER_PRODUCTS.map(([id, descripcion, estimulo, palabras]) => ({
      id,
      descripcion,
      incluirIvaTrasladado: 'Opcional',
      incluirIepsTrasladado: 'Opcional',
      fechaInicioVigencia: '2019-01-07',
      estimuloFranjaFronteriza: estimulo,
      palabrasSimilares: palabras,
    })),
  );
  return { kind: 'starter', rows: STARTER_PRODUCTS.length };
}
