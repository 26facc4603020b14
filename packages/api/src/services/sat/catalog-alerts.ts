import type { SatCodeChange } from '@folio/db/queries/sat-alerts';

// Which changes of the SAT catalog a PRO user who favorited a code is alerted about (plan-features
// §4: alerts on favorites); catalog-import.ts calls these for each favorited code a file changes.

/** The part of a catalog row alerts look at, stored or as read from a file. */
interface Product {
  id: string;
  descripcion: string;
  incluirIvaTrasladado: string;
  incluirIepsTrasladado: string;
  complementoQueDebeIncluir?: string | null;
  fechaFinVigencia?: string | null;
}

/** The fields a favorite's owner is alerted about, each with the `cambio` it is reported as. */
const WATCHED = [
  ['fin_vigencia', 'fechaFinVigencia'],
  ['iva', 'incluirIvaTrasladado'],
  ['ieps', 'incluirIepsTrasladado'],
  ['complemento', 'complementoQueDebeIncluir'],
  ['descripcion', 'descripcion'],
] as const satisfies readonly (readonly [SatCodeChange['cambio'], keyof Product])[];

/** What changed in one code between its stored row and the file's new one (one entry per field). */
export function changesOf(before: Product, after: Product): SatCodeChange[] {
  return WATCHED.flatMap(([cambio, field]) => {
    const antes = before[field] ?? null;
    const despues = after[field] ?? null;
    return antes === despues ? [] : [{ clave: before.id, cambio, antes, despues }];
  });
}

/** A code the file no longer holds: what it was, nothing after. */
export const removalOf = (before: Product): SatCodeChange => ({
  clave: before.id,
  cambio: 'eliminada',
  antes: before.descripcion,
  despues: null,
});
