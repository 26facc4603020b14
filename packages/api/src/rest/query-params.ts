import { AppError } from '../errors';

/**
 * Names callers reach for that a route spells differently; a suggestion only when the route knows the
 * target. Edit distance alone would offer `mes` for `q`.
 */
const SYNONYMS: Record<string, string[]> = {
  search: ['q', 'query', 'text', 'filter'],
  query: ['q', 'search', 'text'],
  año: ['year', 'anio', 'ano', 'yr'],
  mes: ['month', 'mo'],
  limit: ['per_page', 'perpage', 'page_size', 'pagesize', 'size'],
  profileId: ['profile', 'rfc'],
};

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/** The known name a caller most likely meant: a synonym, else the nearest by edit distance (case, accents and `_` aside). */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const folded = fold(name);
  const synonym = known.find((k) => SYNONYMS[k]?.some((s) => fold(s) === folded));
  if (synonym) return synonym;
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(folded, fold(k));
    if (!best || d < best.d) best = { name: k, d };
  }
  return best?.name;
}

/**
 * Refuses a query parameter the route does not read (400 `unknown_parameter`), naming the closest known
 * one, as Stripe does: a misspelled filter must not silently widen an answer or spend a quota.
 */
export function refuseUnknownParams(given: readonly string[], known: readonly string[]): void {
  const unknown = given.find((name) => !known.includes(name));
  if (unknown === undefined) return;
  const closest = closestName(unknown, known);
  const hint = closest ? `; did you mean \`${closest}\`?` : '; this route takes no query parameters';
  throw new AppError(
    'BAD_REQUEST',
    `Unknown query parameter \`${unknown}\`${hint}`,
    undefined,
    'unknown_parameter',
  );
}
