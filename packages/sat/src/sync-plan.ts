import type { Content, Direction } from './gateway';

// What one sync asks SAT for, the same on the server and in the CLI (integrations.md §1).

export type SyncTipo = Direction | 'ambos';
export type SyncContenido = Content | 'ambos';

/** One SAT request per direction × content (`ambos`/`ambos` = 4), each direction's metadata first. */
export function plannedRequests(
  tipo: SyncTipo,
  contenido: SyncContenido,
): { direction: Direction; content: Content }[] {
  const directions: Direction[] = tipo === 'ambos' ? ['emitidos', 'recibidos'] : [tipo];
  const contents: Content[] = contenido === 'ambos' ? ['metadata', 'cfdi'] : [contenido];
  return directions.flatMap((direction) => contents.map((content) => ({ direction, content })));
}

/** Seconds before verification n (0 = the first after the request): 1 minute doubling to 1 hour. */
export const satPollDelaySeconds = (n: number): number => Math.min(3600, 60 * 2 ** n);

/** A `YYYY-MM-DD` day `n` days later (earlier when negative). */
export const addDays = (day: string, n: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The two halves of a period SAT says holds too many records (5003); null for a single day. */
export function halvesOf(desde: string, hasta: string): [[string, string], [string, string]] | null {
  if (desde >= hasta) return null;
  const mid = addDays(desde, Math.floor((Date.parse(hasta) - Date.parse(desde)) / 86_400_000 / 2));
  return [
    [desde, mid],
    [addDays(mid, 1), hasta],
  ];
}
