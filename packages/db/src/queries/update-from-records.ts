// One UPDATE for many rows, each with its own values: what the back-fill and the batched import's
// payment-state refresh write instead of one statement per row.
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../client';

/**
 * `UPDATE table SET … FROM jsonb_to_recordset($rows)`: one statement for a whole batch, the keys
 * matching each row and every other field of the first row set (its SQL type from the schema).
 */
export async function updateFromRecords<T extends PgTable>(
  tx: Executor,
  table: T,
  keys: string[],
  rows: Record<string, unknown>[],
): Promise<void> {
  if (!rows.length) return;
  const columns = getTableColumns(table);
  const fields = Object.keys(rows[0]!);
  const name = (field: string) => sql.identifier(columns[field]!.name);
  const list = (parts: SQL[], by: string) => sql.join(parts, sql.raw(by));
  const definitions = list(
    fields.map((f) => sql`${name(f)} ${sql.raw(columns[f]!.getSQLType())}`),
    ', ',
  );
  const sets = list(
    fields.filter((f) => !keys.includes(f)).map((f) => sql`${name(f)} = v.${name(f)}`),
    ', ',
  );
  const matches = list(
    keys.map((k) => sql`t.${name(k)} = v.${name(k)}`),
    ' and ',
  );
  const records = rows.map((r) => Object.fromEntries(fields.map((f) => [columns[f]!.name, r[f] ?? null])));
  await tx.execute(
    sql`update ${table} as t set ${sets} from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as v(${definitions}) where ${matches}`,
  );
}
