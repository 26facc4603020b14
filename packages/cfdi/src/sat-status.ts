// A CFDI's status before SAT and which source may set it (docs/sat-status.md; CFF 29-A, RMF 2.7.1.35
// and 2.7.1.38 on cancellation): a status only ever moves from vigente to cancelado, SAT's own word
// outranks the user's and a substitution's presumption, and a cancellation SAT reported is final.

export type EstatusSat = 'vigente' | 'cancelado' | 'desconocido';
export type EstatusFuente = 'metadata' | 'consulta' | 'usuario' | 'sustitucion';

export interface SatStatus {
  estatus: EstatusSat;
  fuente: EstatusFuente | null;
  fechaCancelacion: string | null;
}

/** SAT's metadata files and its status service speak for SAT; the user and a substitution presume. */
export const isSatSource = (fuente: EstatusFuente | null): boolean =>
  fuente === 'metadata' || fuente === 'consulta';

/** Cancelled by SAT's own word: nothing reverts it (a later file saying 1 is an older snapshot). */
export const cancelledBySat = (s: Pick<SatStatus, 'estatus' | 'fuente'>): boolean =>
  s.estatus === 'cancelado' && isSatSource(s.fuente);

export type StatusDecision =
  | { change: true; next: SatStatus }
  /** same: nothing new; final: SAT cancelled it; outranked: a stronger source already spoke. */
  | { change: false; reason: 'same' | 'final' | 'outranked' };

/** What a source saying `incoming` does to a CFDI whose status is `current`. */
export function decideStatus(
  current: SatStatus,
  incoming: SatStatus & { fuente: EstatusFuente },
): StatusDecision {
  const same =
    current.estatus === incoming.estatus &&
    (current.fuente === incoming.fuente || (isSatSource(current.fuente) && isSatSource(incoming.fuente)));
  if (cancelledBySat(current)) return { change: false, reason: same ? 'same' : 'final' };
  if (same && (current.fechaCancelacion ?? null) === (incoming.fechaCancelacion ?? null))
    return { change: false, reason: 'same' };
  if (isSatSource(incoming.fuente)) return { change: true, next: incoming };
  // A presumption only fills in what no source said: a user's mark or SAT's vigente stands.
  if (incoming.fuente === 'sustitucion')
    return current.fuente === null || current.fuente === 'sustitucion'
      ? { change: true, next: incoming }
      : { change: false, reason: 'outranked' };
  // The user: over a presumption or an earlier mark always; over SAT's vigente only to cancel
  // (a CFDI cancelled since the last file), never to say vigente again.
  if (isSatSource(current.fuente) && incoming.estatus !== 'cancelado')
    return { change: false, reason: 'same' };
  return { change: true, next: incoming };
}
