// One INSERT or UPDATE for many rows, each with its own values: what the batched import and the
// back-fill write instead of one statement per row.
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Executor, rowsOf } from '../client';

const list = (parts: (SQL | SQL.Aliased | ReturnType<typeof sql.identifier>)[], by: string) =>
  sql.join(parts, sql.raw(by));

/**
 * The rows as one jsonb parameter read back by `jsonb_to_recordset`, each field typed from the
 * schema: one statement for a whole batch, and no per-value work in the query builder (building a
 * 100-row, 50-column insert cost more than running it). Fields are the union of the rows' keys.
 */
function recordset<T extends PgTable>(table: T, rows: Record<string, unknown>[]) {
  const columns = getTableColumns(table);
  const fields = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const name = (field: string) => sql.identifier(columns[field]!.name);
  const definitions = list(
    fields.map((f) => sql`${name(f)} ${sql.raw(columns[f]!.getSQLType())}`),
    ', ',
  );
  const records = rows.map((r) => Object.fromEntries(fields.map((f) => [columns[f]!.name, r[f] ?? null])));
  return {
    fields,
    name,
    source: sql`jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as v(${definitions})`,
  };
}

/**
 * `UPDATE table SET … FROM jsonb_to_recordset($rows)`: the keys matching each row and every other
 * field set.
 */
export async function updateFromRecords<T extends PgTable>(
  tx: Executor,
  table: T,
  keys: string[],
  rows: Record<string, unknown>[],
): Promise<void> {
  if (!rows.length) return;
  const { fields, name, source } = recordset(table, rows);
  const sets = list(
    fields.filter((f) => !keys.includes(f)).map((f) => sql`${name(f)} = v.${name(f)}`),
    ', ',
  );
  const matches = list(
    keys.map((k) => sql`t.${name(k)} = v.${name(k)}`),
    ' and ',
  );
  await tx.execute(sql`update ${table} as t set ${sets} from ${source} where ${matches}`);
}

/**
 * `INSERT INTO table (…) SELECT … FROM jsonb_to_recordset($rows)`, with `tail` after it (ON
 * CONFLICT, RETURNING); columns no row names take their defaults. Returns the rows returned.
 */
export async function insertFromRecords<T extends PgTable, R = never>(
  tx: Executor,
  table: T,
  rows: Record<string, unknown>[],
  tail: SQL = sql``,
): Promise<R[]> {
  if (!rows.length) return [];
  const { fields, name, source } = recordset(table, rows);
  const targets = list(fields.map(name), ', ');
  return rowsOf<R>(
    await tx.execute(sql`insert into ${table} (${targets}) select ${targets} from ${source} ${tail}`),
  );
}
