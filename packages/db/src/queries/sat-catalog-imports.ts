import { randomUUID } from 'node:crypto';
import { and, count, desc, inArray, isNull, sql } from 'drizzle-orm';
import { type Db, type Executor, rowsOf } from '../client';
import { satCatalogImports, satFavorites, satProducts } from '../schema';

// The statements of a c_ClaveProdServ import (services/sat/catalog-import.ts): writes to sat_products
// and the sat_catalog_imports ledger. Which changes alert a user is decided there, not here.

export type SatProductInsert = typeof satProducts.$inferInsert;

/** SAT's catalog CSV columns, in the file's order (also the staging table's). */
export const CSV_COLUMNS = [
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
const COLUMNS = CSV_COLUMNS.map(
  (c) => [c, c.replace(/_(\w)/g, (_, ch: string) => ch.toUpperCase())] as const,
);
const columnList = sql.raw(CSV_COLUMNS.join(', '));

/**
 * One statement per batch with the rows as a single JSON parameter (json_populate_recordset), not
 * nine bound parameters per row: binding 9,000 parameters per statement made the first start's
 * import of the 52,514 codes take twice as long. A row upserted is in the catalog again.
 */
export async function upsertSatProducts(db: Executor, rows: SatProductInsert[]): Promise<void> {
  const json = JSON.stringify(
    rows.map((r) => Object.fromEntries(COLUMNS.map(([c, k]) => [c, r[k as keyof SatProductInsert] ?? null]))),
  );
  await db.execute(sql`
    insert into ${satProducts} (${columnList})
    select ${columnList} from json_populate_recordset(null::sat_products, ${json}::json)
    on conflict (id) do update set
      ${sql.raw(
        CSV_COLUMNS.filter((c) => c !== 'id')
          .map((c) => `${c} = excluded.${c}`)
          .join(', '),
      )},
      updated_at = now(), removed_at = null`);
}

/** The fields of a stored code an import compares with the file's. */
const COMPARED = {
  id: satProducts.id,
  descripcion: satProducts.descripcion,
  incluirIvaTrasladado: satProducts.incluirIvaTrasladado,
  incluirIepsTrasladado: satProducts.incluirIepsTrasladado,
  complementoQueDebeIncluir: satProducts.complementoQueDebeIncluir,
  fechaFinVigencia: satProducts.fechaFinVigencia,
};
const favorited = sql`exists (select 1 from ${satFavorites} where ${satFavorites.clave} = ${satProducts.id})`;

/** Stored rows of these codes that someone has among their favorites. */
export const favoritedSatProducts = (db: Executor, codes: string[]) =>
  db
    .select(COMPARED)
    .from(satProducts)
    .where(and(inArray(satProducts.id, codes), favorited));

/** The database's clock: every row an import touches later gets an updated_at past it. */
export async function importClock(db: Db): Promise<string> {
  const [clock] = rowsOf<{ started: string }>(await db.execute(sql`select now()::text as started`));
  return clock!.started;
}

/** Codes still in the catalog that an import started at `started` did not touch. */
const untouchedSince = (started: string) =>
  and(isNull(satProducts.removedAt), sql`${satProducts.updatedAt} < ${started}::timestamptz`);

/** Of the codes the import did not touch, the favorited ones, before they are marked removed. */
export const untouchedFavoritedSatProducts = (tx: Executor, started: string) =>
  tx
    .select(COMPARED)
    .from(satProducts)
    .where(and(untouchedSince(started), favorited));

/** Marks removed the codes the import did not touch; returns how many. */
export async function markUntouchedSatProductsRemoved(tx: Executor, started: string): Promise<number> {
  const removed = await tx
    .update(satProducts)
    .set({ removedAt: sql`now()` })
    .where(untouchedSince(started))
    .returning({ id: satProducts.id });
  return removed.length;
}

export async function recordSatCatalogImport(
  tx: Executor,
  run: { sha256: string; rows: number; removed: number; alerts: number },
): Promise<void> {
  await tx.insert(satCatalogImports).values({ id: randomUUID(), ...run });
}

/** The SHA-256 of the file the last import read, if any. */
export async function lastSatCatalogImportSha(db: Db): Promise<string | undefined> {
  const [last] = await db
    .select({ sha256: satCatalogImports.sha256 })
    .from(satCatalogImports)
    .orderBy(desc(satCatalogImports.finishedAt))
    .limit(1);
  return last?.sha256;
}

export async function countSatProducts(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(satProducts);
  return row?.n ?? 0;
}
