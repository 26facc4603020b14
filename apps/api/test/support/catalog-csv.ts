import { writeFileSync } from 'node:fs';
import type { Db } from '@folio/db';
import { satProducts } from '@folio/db/schema';
import { asc, isNull } from 'drizzle-orm';

export type CatalogRow = typeof satProducts.$inferSelect;
/** What a CSV line holds of a code. */
type CsvRow = Pick<
  CatalogRow,
  | 'id'
  | 'descripcion'
  | 'incluirIvaTrasladado'
  | 'incluirIepsTrasladado'
  | 'complementoQueDebeIncluir'
  | 'fechaInicioVigencia'
  | 'fechaFinVigencia'
  | 'estimuloFranjaFronteriza'
  | 'palabrasSimilares'
>;

const CSV_HEADER =
  'id,descripcion,incluir_iva_trasladado,incluir_ieps_trasladado,complemento_que_debe_incluir,' +
  'fecha_inicio_vigencia,fecha_fin_vigencia,estimulo_franja_fronteriza,palabras_similares';
const cell = (v: string | null) => (v === null ? '' : /[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/**
 * The codes the stored catalog holds now written as a c_ClaveProdServ CSV to `file`, after `edit`
 * (which may drop, change or add rows): what a newer SAT file would be. Importing it removes the
 * codes it lacks.
 */
export async function editedCatalog(
  db: Db,
  file: string,
  edit: (rows: CatalogRow[]) => CsvRow[] = (rows) => rows,
): Promise<string> {
  const rows = await db
    .select()
    .from(satProducts)
    .where(isNull(satProducts.removedAt))
    .orderBy(asc(satProducts.id));
  const lines = edit(rows).map((r) =>
    [
      r.id,
      r.descripcion,
      r.incluirIvaTrasladado,
      r.incluirIepsTrasladado,
      r.complementoQueDebeIncluir,
      r.fechaInicioVigencia,
      r.fechaFinVigencia,
      r.estimuloFranjaFronteriza,
      r.palabrasSimilares,
    ]
      .map(cell)
      .join(','),
  );
  writeFileSync(file, `${[CSV_HEADER, ...lines].join('\n')}\n`, 'utf8');
  return file;
}
