import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../client';

/**
 * Runs one statement written for `pg` (`$1`, `$2`… placeholders) on a drizzle handle or transaction,
 * on either driver: a library that speaks SQL text (the job queue) can then write inside a caller's
 * transaction. Each `$n` becomes a drizzle parameter, one per occurrence; PostgreSQL would type a
 * repeated `$n` from its first use, so every occurrence gets the cast the text gives it somewhere
 * (`$7::integer`), or `text` for a string, as `pg` would infer. Objects are sent as JSON text.
 */
export async function executeNumbered(
  ex: Executor,
  text: string,
  values: unknown[] = [],
): Promise<unknown[]> {
  const casts = new Map<string, string>();
  for (const m of text.matchAll(/\$(\d+)::([a-z_]+(?:\[\])?)/g))
    if (!casts.has(m[1]!)) casts.set(m[1]!, m[2]!);
  const parts: SQL[] = [];
  let last = 0;
  for (const m of text.matchAll(/\$(\d+)/g)) {
    const v = param(values[Number(m[1]) - 1]);
    const cast = casts.get(m[1]!) ?? (typeof v === 'string' ? 'text' : undefined);
    parts.push(sql.raw(text.slice(last, m.index)), sql`(${v}${sql.raw(cast ? `::${cast}` : '')})`);
    last = m.index + m[0].length;
  }
  parts.push(sql.raw(text.slice(last)));
  return rowsOf(await ex.execute(sql.join(parts)));
}

function param(v: unknown): unknown {
  if (v === undefined) return null;
  if (v && typeof v === 'object' && !(v instanceof Date) && !Array.isArray(v)) return JSON.stringify(v);
  return v;
}
