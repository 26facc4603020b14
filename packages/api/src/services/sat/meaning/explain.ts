import type { SatProductRecord } from '@folio/db/queries/catalogs';
import type { QueryTerm } from './query';
import { isContentWord, stem, words } from './text';

/**
 * Why a code answers a query and how the catalog says to invoice it, in Spanish, from the row alone:
 * the query's words (or the lexicon's readings of them) that the code's description or similar
 * words hold, IVA and IEPS trasladado, the complement it requires, and its validity. Nothing the row
 * does not say.
 */
export function explain(row: SatProductRecord, terms: QueryTerm[], today: string): string {
  return [reason(row, terms), taxes(row), complement(row), validity(row, today)].join(' ');
}

function reason(row: SatProductRecord, terms: QueryTerm[]): string {
  // The code's own words by stem, to quote them as the catalog writes them.
  const own = new Map<string, string>();
  for (const w of words(`${row.descripcion} ${row.palabrasSimilares ?? ''}`))
    if (isContentWord(w) && !own.has(stem(w))) own.set(stem(w), w);
  const direct = new Set<string>();
  const related = new Map<string, Set<string>>();
  for (const t of terms) {
    const theirs = own.get(t.stem);
    if (!theirs) continue;
    if (t.via === undefined) direct.add(t.word);
    else related.set(t.word, (related.get(t.word) ?? new Set()).add(theirs));
  }
  const where = `«${row.descripcion}»${row.palabrasSimilares ? ` (palabras similares: ${row.palabrasSimilares})` : ''}`;
  const parts: string[] = [];
  if (direct.size) parts.push(`${plural(direct.size, 'la palabra', 'las palabras')} ${quoted(direct)}`);
  for (const [word, theirs] of related)
    if (!direct.has(word)) parts.push(`«${word}», que se relaciona con ${quoted(theirs)}`);
  if (parts.length) return `Coincide con su búsqueda por ${list(parts)}: ${where}.`;
  return `No repite palabras de su búsqueda; se propone porque ${where} aparece en el catálogo junto a términos afines a los que usó.`;
}

function taxes(row: SatProductRecord): string {
  return `IVA trasladado: ${row.incluirIvaTrasladado}. IEPS trasladado: ${row.incluirIepsTrasladado}.`;
}

function complement(row: SatProductRecord): string {
  return row.complementoQueDebeIncluir
    ? `El CFDI debe incluir el complemento «${row.complementoQueDebeIncluir}».`
    : 'El catálogo no exige complemento.';
}

function validity(row: SatProductRecord, today: string): string {
  const from = `Vigente desde el ${row.fechaInicioVigencia}`;
  if (!row.fechaFinVigencia) return `${from}, sin fecha de fin de vigencia.`;
  if (row.fechaFinVigencia < today)
    return `Ya no está vigente: su vigencia terminó el ${row.fechaFinVigencia} (comenzó el ${row.fechaInicioVigencia}).`;
  return `${from} hasta el ${row.fechaFinVigencia}.`;
}

const quoted = (items: Iterable<string>) => list([...items].map((i) => `«${i}»`));
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** "a", "a y b", "a, b y c". */
function list(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} y ${items.at(-1)}`;
}
