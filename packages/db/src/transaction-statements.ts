/**
 * Distinct statement texts a pool prepares inside transactions. postgres.js and PostgreSQL keep each
 * on every connection that ran it until the connection retires (postgres.js's max_lifetime, 30 to 60
 * minutes), and a text made from its data (a multi-row VALUES, an `in ($1, …, $n)`) is a new one for
 * each size: past this many, a new text goes unnamed, as drizzle sends it.
 */
export const MAX_PREPARED_TEXTS = 500;

type Scope = (sql: object) => unknown;
type Unsafe = (text: string, params?: unknown[], options?: { prepare?: boolean }) => unknown;

/**
 * The postgres.js pool, for drizzle, with the statements of its transactions prepared. drizzle names
 * only what it was asked to prepare, and postgres.js sends an unnamed statement with parameters in
 * two round trips (Parse and Describe; then Bind and Execute, once PostgreSQL has said the
 * parameters' types) and nothing else down that connection meanwhile. A prepared statement pays that
 * once on a connection, then takes one round trip, and PostgreSQL parses it once. A transaction
 * holds its locks and its connection over each round trip: an import's transaction took 28, now 13
 * (docs/benchmarks.md, round 10). Statements outside a transaction keep drizzle's choice: the
 * hot reads are prepared by name (`prepared`), and a report's date range may want a plan of its own
 * each time, which a prepared statement may stop making after five runs.
 */
export function preparingTransactions<S extends object>(pool: S, maxTexts = MAX_PREPARED_TEXTS): S {
  const texts = new Set<string>();
  const preparable = (text: string) => texts.has(text) || (texts.size < maxTexts && !!texts.add(text));
  // `begin(fn)` / `begin(options, fn)`, `savepoint(fn)` / `savepoint(name, fn)`: the scope is last.
  const scoped = (method: unknown) => {
    const run = method as (...args: unknown[]) => unknown;
    return (...args: unknown[]) => {
      const fn = args.pop() as Scope;
      return run(...args, (sql: object) => fn(inTransaction(sql)));
    };
  };
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
    get: (target, key) => (key === 'begin' ? scoped(Reflect.get(target, key)) : Reflect.get(target, key)),
  });
}
