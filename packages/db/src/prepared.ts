import { Column, is, SQL, Subquery } from 'drizzle-orm';
import { type Executor, rowsOf } from './client';

const statements = new WeakMap<Executor, Map<string, unknown>>();
/** A drizzle query that can be prepared (select, union…). */
interface Preparable<P> {
  prepare(name: string): P;
}

/**
 * A drizzle statement built once per database handle and from then on only executed. Building costs
 * more CPU than PostgreSQL spends answering the small reads every request makes (the session, the
 * profile, a listing page), about half of a one-row select's time (docs/benchmarks.md). A transaction handle is new
 * each time, so inside one the statement is simply built for it.
 */
export function prepared<P>(conn: Executor, name: string, build: (conn: Executor) => Preparable<P>): P {
  let byName = statements.get(conn);
  if (!byName) {
    byName = new Map();
    statements.set(conn, byName);
  }
  let statement = byName.get(name) as P | undefined;
  if (statement === undefined) {
    statement = build(conn).prepare(name);
    mapFlatRows(statement as SelectStatement);
    byName.set(name, statement);
  }
  return statement;
}

/** The parts of a drizzle handle on postgres.js that a raw statement needs to run prepared. */
interface PostgresJsHandle {
  $client?: { unsafe?: (text: string, params: unknown[], o: { prepare: boolean }) => Promise<unknown[]> };
  dialect?: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
}

/**
 * Runs a statement drizzle can only `execute` (a data-modifying CTE) as a named prepared statement
 * when the handle is postgres.js's pool: drizzle sends `execute` unnamed, and postgres.js sends an
 * unnamed statement with parameters as two round trips (Parse and Describe, then Bind and Execute
 * once PostgreSQL has said the parameters' types), a named one after its first use as one
 * (docs/benchmarks.md, SAT search's tail). Only for a statement whose text never changes (each
 * text stays prepared on every connection). In a transaction it is prepared all the same
 * (`preparingTransactions`); PGlite executes it as usual.
 */
export async function executePrepared(db: Executor, query: SQL): Promise<unknown[]> {
  const { $client: client, dialect } = db as unknown as PostgresJsHandle;
  if (typeof client?.unsafe !== 'function' || !dialect) return rowsOf(await db.execute(query));
  const { sql: text, params } = dialect.sqlToQuery(query);
  return client.unsafe(text, params, { prepare: true });
}

/** What drizzle's prepared select carries besides its public type: its selection, and a hook for mapping rows. */
interface SelectStatement {
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: (rows: unknown[][]) => unknown[];
}
type Decoder = { mapFromDriverValue(value: unknown): unknown };

/**
 * drizzle maps a row by walking its selection and checking each field's kind, on every row: a visible share
 * of a listing request's CPU (docs/benchmarks.md). For a flat selection (every field at the top level,
 * so no joined table to turn into null) the same decoders are resolved once and run in a plain loop:
 * a null stays null, anything else goes through the field's decoder, as drizzle's mapResultRow does.
 */
function mapFlatRows(statement: SelectStatement): void {
  const { fields } = statement;
  if (!fields?.length || statement.customResultMapper || fields.some((f) => f.path.length !== 1)) return;
  const keys = fields.map((f) => f.path[0]!);
  // An SQL's decoder is drizzle-internal, as the mapping that reads it.
  const decoderOf = (s: unknown) => (s as { decoder: Decoder }).decoder;
  const decoders = fields.map(({ field }): Decoder => {
    if (is(field, Column)) return field;
    if (is(field, SQL)) return decoderOf(field);
    if (is(field, Subquery)) return decoderOf(field._.sql);
    return decoderOf((field as SQL.Aliased).sql);
  });
  statement.customResultMapper = (rows) =>
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const value = row[i];
        out[keys[i]!] = value === null ? null : decoders[i]!.mapFromDriverValue(value);
      }
      return out;
    });
}
