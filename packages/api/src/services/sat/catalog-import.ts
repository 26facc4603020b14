import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { type Db, seedStarterCatalog } from '@folio/db';
import { pruneSatLexicon } from '@folio/db/queries/catalogs';
import { recordSatAlerts } from '@folio/db/queries/sat-alerts';
import {
  countSatProducts,
  favoritedSatProducts,
  CSV_COLUMNS as HEADER,
  importClock,
  lastSatCatalogImportSha,
  markUntouchedSatProductsRemoved,
  recordSatCatalogImport,
  type SatProductInsert,
  untouchedFavoritedSatProducts,
  upsertSatProducts,
} from '@folio/db/queries/sat-catalog-imports';
import { parse } from 'csv-parse';
import { changesOf, removalOf } from './catalog-alerts';

const BATCH = 1000;

/** The CSV's text, gunzipped when the file name ends in `.gz`. */
function readCatalog(file: string): Readable {
  const raw = createReadStream(file);
  return file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
}

const orNull = (v: string | undefined) => (v?.trim() ? v.trim() : null);

function toRow(r: Record<(typeof HEADER)[number], string>, line: number): SatProductInsert {
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

/**
 * Loads a c_ClaveProdServ CSV (header as in SAT's sheet) in batches, upserting, so it can be re-run.
 * A re-import compares each favorited code's stored row with the file's and records an alert per
 * change for its owners (catalog-alerts.ts decides which), in the batch's own transaction (a run cut
 * short loses no alert); codes the file no longer holds are marked removed (kept: favorites and CFDIs
 * still name them; searches no longer see them, nor the lexicon their stems), with an `eliminada`
 * alert. The run is recorded with the file's SHA-256 (start-up re-imports another file).
 * `onProgress` receives the running row count after each batch.
 */
export async function importSatCatalog(
  db: Db,
  file: string,
  onProgress: (rows: number) => void = () => {},
): Promise<number> {
  const sha256 = await fileSha256(file);
  // Every row the file holds gets updated_at = now() of a later transaction than this one's.
  const started = await importClock(db);
  const parser = readCatalog(file).pipe(
    parse({ bom: true, columns: (h: string[]) => checkHeader(h), skip_empty_lines: true, info: true }),
  );
  // Keyed by code: a code repeated in the file keeps its last row (one upsert may not touch a row twice).
  let batch = new Map<string, SatProductInsert>();
  let total = 0;
  let alerts = 0;
  const flush = async () => {
    const rows = [...batch.values()];
    await db.transaction(async (tx) => {
      const stored = await favoritedSatProducts(tx, [...batch.keys()]);
      alerts += await recordSatAlerts(
        tx,
        stored.flatMap((before) => changesOf(before, batch.get(before.id) as SatProductInsert)),
      );
      await upsertSatProducts(tx, rows);
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
    const removedFavorites = await untouchedFavoritedSatProducts(tx, started);
    alerts += await recordSatAlerts(tx, removedFavorites.map(removalOf));
    const removed = await markUntouchedSatProductsRemoved(tx, started);
    if (removed) await pruneSatLexicon(tx);
    await recordSatCatalogImport(tx, { sha256, rows: total, removed, alerts });
  });
  return total;
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
  const loaded = await countSatProducts(db);
  const last = await lastSatCatalogImportSha(db);
  if (csvPath && (loaded === 0 || last !== (await fileSha256(csvPath)))) {
    return { kind: 'csv', rows: await importSatCatalog(db, csvPath) };
  }
  if (bundled && !csvPath && !last) return { kind: 'bundled', rows: await importSatCatalog(db, bundled) };
  if (loaded > 0) return { kind: 'existing', rows: loaded };
  return { kind: 'starter', rows: await seedStarterCatalog(db) };
}
