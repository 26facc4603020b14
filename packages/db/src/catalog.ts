import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { count, sql } from 'drizzle-orm';
import type { Db } from './client';
import { satProducts } from './schema';
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

async function upsert(db: Db, rows: ProductRow[]) {
  await db
    .insert(satProducts)
    .values(rows)
    .onConflictDoUpdate({
      target: satProducts.id,
      set: {
        ...Object.fromEntries(
          HEADER.filter((c) => c !== 'id').map((c) => [
            c.replace(/_(\w)/g, (_, ch: string) => ch.toUpperCase()),
            sql.raw(`excluded.${c}`),
          ]),
        ),
        updatedAt: sql`now()`,
      },
    });
}

/**
 * Loads a c_ClaveProdServ CSV (header as in SAT's sheet) in batches, upserting, so it can be re-run.
 * `onProgress` receives the running row count after each batch.
 */
export async function importSatCatalog(
  db: Db,
  file: string,
  onProgress: (rows: number) => void = () => {},
): Promise<number> {
  const parser = createReadStream(file).pipe(
    parse({ bom: true, columns: (h: string[]) => checkHeader(h), skip_empty_lines: true, info: true }),
  );
  // Keyed by code: a code repeated in the file keeps its last row (one upsert may not touch a row twice).
  let batch = new Map<string, ProductRow>();
  let total = 0;
  const flush = async () => {
    await upsert(db, [...batch.values()]);
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
  return total;
}

function checkHeader(h: string[]): string[] {
  const got = h.map((c) => c.trim());
  if (HEADER.some((c, i) => got[i] !== c)) {
    throw new Error(`unexpected CSV header: expected ${HEADER.join(',')}, got ${got.join(',')}`);
  }
  return got;
}

export type CatalogSource = { kind: 'existing' | 'csv' | 'starter'; rows: number };

/** At start-up: keep a loaded catalog; else load `csvPath` when given, else the starter set. */
export async function ensureSatCatalog(db: Db, csvPath?: string): Promise<CatalogSource> {
  const [row] = await db.select({ n: count() }).from(satProducts);
  if (row && row.n > 0) return { kind: 'existing', rows: row.n };
  if (csvPath) return { kind: 'csv', rows: await importSatCatalog(db, csvPath) };
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
