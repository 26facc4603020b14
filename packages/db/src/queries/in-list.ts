import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * `column in (values)` with the list as one jsonb parameter: the statement's text is the same for
 * any length, so it is prepared once (an `in ($1, …, $n)` is a new statement, parsed and planned
 * again, for each length a batch happens to have), and building it costs as little for 200 values
 * as for one.
 */
export const inList = (column: AnyColumn, values: readonly string[]): SQL =>
  sql`${column} in (select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
