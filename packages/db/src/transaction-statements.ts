/**
 * Distinct statement texts a pool prepares inside transactions. postgres.js and PostgreSQL keep each
 * on every connection that ran it until the connection retires (postgres.js's max_lifetime, 30 to 60
 * minutes), and a text made from its data (a multi-row VALUES, an `in ($1, …, $n)`) is a new one for
 * each size: past this many, a new text goes unnamed, as drizzle sends it.
 */
export const MAX_PREPARED_TEXTS = 500;

/**
 * A prepared statement may run on a generic plan after five runs, one PostgreSQL made once for any
 * parameters with the statistics of that moment. An import's substitution lookup got one while its
 * tables were nearly empty and took 3.6 ms a call instead of 0.35, more as the profile grew
 * (docs/benchmarks.md, round 10). A transaction's statements keep a plan made for their parameters
 * each time, as unnamed statements had; sent ahead of the first statement, in the same write, so it
 * costs no round trip.
 */
const CUSTOM_PLANS = 'set local plan_cache_mode = force_custom_plan';

type Scope = (sql: object) => unknown;
type Unsafe = (text: string, params?: unknown[], options?: { prepare?: boolean }) => unknown;
type Sql = { unsafe(text: string): { execute(): unknown } };

/**
 * The postgres.js pool, for drizzle, with the statements of its transactions prepared. drizzle names
 * only what it was asked to prepare, and postgres.js sends an unnamed statement with parameters in
 * two round trips (Parse and Describe; then Bind and Execute, once PostgreSQL has said the
 * parameters' types) and nothing else down that connection meanwhile. A prepared statement pays that
 * once on a connection, then takes one round trip, and PostgreSQL parses it once. A transaction
 * holds its locks and its connection over each round trip: an import's transaction took 28, now 14
 * (docs/benchmarks.md, round 10). Statements outside a transaction keep drizzle's choice: the
 * hot reads are prepared by name (`prepared`) and run on generic plans, which halve a listing's
 * PostgreSQL time.
 */
export function preparingTransactions<S extends object>(pool: S, maxTexts = MAX_PREPARED_TEXTS): S {
  const texts = new Set<string>();
  const preparable = (text: string) => texts.has(text) || (texts.size < maxTexts && !!texts.add(text));
  // `begin(fn)` / `begin(options, fn)`, `savepoint(fn)` / `savepoint(name, fn)`: the scope is last.
  const scoped = (method: unknown, opening?: (sql: Sql) => void) => {
    const run = method as (...args: unknown[]) => unknown;
    return (...args: unknown[]) => {
      const fn = args.pop() as Scope;
      return run(...args, (sql: object) => {
        opening?.(sql as Sql);
        return fn(inTransaction(sql));
      });
    };
  };
  // Not awaited: postgres.js holds a failure of it as the transaction's, which then rolls back.
  const customPlans = (sql: Sql) => sql.unsafe(CUSTOM_PLANS).execute();
  const inTransaction = (sql: object): object =>
    new Proxy(sql, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (key === 'savepoint') return scoped(value);
        if (key !== 'unsafe') return value;
        return ((text, params, options) =>
          (value as Unsafe)(
            text,
            params,
            preparable(text) ? { ...options, prepare: true } : options,
          )) as Unsafe;
      },
    });
  return new Proxy(pool, {
    get: (target, key) =>
      key === 'begin' ? scoped(Reflect.get(target, key), customPlans) : Reflect.get(target, key),
  });
}
