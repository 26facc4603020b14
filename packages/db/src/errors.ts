/** PostgreSQL's unique_violation (23505), whichever driver reports it and however drizzle wraps it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true;
  }
  return false;
}

// postgres.js connection failures, socket errors, and SQLSTATE classes 08 (connection exception)
// and 57P (operator intervention: shutdown, crash, cannot connect now).
const UNAVAILABLE =
  /^(CONNECTION_(CLOSED|ENDED|DESTROYED)|CONNECT_TIMEOUT|ECONN(REFUSED|RESET)|EPIPE|ETIMEDOUT|08...|57P0[1-3])$/;

/** The database cannot be reached right now (as opposed to rejecting the query). */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && UNAVAILABLE.test(e.code)) return true;
  }
  return false;
}
