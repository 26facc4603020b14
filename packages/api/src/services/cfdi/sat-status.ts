// The SAT status of stored CFDI (docs/sat-status.md, tax-rules §1): what a source's word does to a
// CFDI, and what an import learns for its new ones — the metadata SAT already listed for them, and
// the substitutions (TipoRelacion 04) they complete, in either order of arrival.
import { decideStatus, type EstatusFuente, type SatStatus, type StatusDecision } from '@folio/cfdi';
import type { Db, Tx } from '@folio/db';
import {
  metadataByUuids,
  type NewStatus,
  paymentKeysOf,
  type StatusRow,
  saveStatuses,
  statusesByUuids,
  substitutionsOf,
  unpresumedSubstitutions,
} from '@folio/db/queries/sat-status';
import { groupBy } from '../group';
import { emit } from '../webhooks/events';
import { refreshPaymentState } from './payment-state';

export const currentStatus = (
  row: Pick<StatusRow, 'estatusSat' | 'estatusFuente' | 'fechaCancelacion'>,
): SatStatus => ({
  estatus: row.estatusSat,
  fuente: row.estatusFuente,
  fechaCancelacion: row.fechaCancelacion,
});

/** A source's word on one stored CFDI. */
export interface StatusWord {
  row: Pick<StatusRow, 'id' | 'estatusSat' | 'estatusFuente' | 'fechaCancelacion'>;
  incoming: SatStatus & { fuente: EstatusFuente };
}

/** Applies each word the precedence allows (saveStatusChanges); returns each word's decision, in order. */
export async function applyStatusWords(
  tx: Tx,
  profileId: string,
  words: StatusWord[],
  at: Date,
): Promise<StatusDecision[]> {
  const decisions = words.map((w) => decideStatus(currentStatus(w.row), w.incoming));
  await saveStatusChanges(
    tx,
    profileId,
    decisions.flatMap((d, i) =>
      d.change ? [{ id: words[i]!.row.id, before: words[i]!.row.estatusSat, next: d.next }] : [],
    ),
    at,
  );
  return decisions;
}

/**
 * Writes new statuses in one statement and recomputes the payment state they move (the CFDI's own,
 * the invoices a complement paid or a note credited). This is where a CFDI becomes cancelled,
 * whoever said so: its `cfdi.cancelled` event is written here, in the same transaction.
 */
export async function saveStatusChanges(
  tx: Tx,
  profileId: string,
  changes: { id: string; before: SatStatus['estatus']; next: SatStatus }[],
  at: Date,
): Promise<void> {
  if (!changes.length) return;
  await emit(
    tx,
    { profileId },
    'cfdi.cancelled',
    changes
      .filter((c) => c.next.estatus === 'cancelado' && c.before !== 'cancelado')
      .map((c) => ({
        cfdi_id: c.id,
        profile_id: profileId,
        fuente: c.next.fuente ?? 'desconocida',
        fecha_cancelacion: c.next.fechaCancelacion,
        updated_at: at.toISOString(),
      })),
  );
  await saveStatuses(
    tx,
    changes.map(
      (c): NewStatus => ({
        id: c.id,
        estatusSat: c.next.estatus,
        estatusFuente: c.next.fuente,
        fechaCancelacion: c.next.fechaCancelacion,
        estatusFecha: at,
      }),
    ),
  );
  await refreshPaymentState(
    tx,
    profileId,
    await paymentKeysOf(
      tx,
      changes.map((c) => c.id),
    ),
  );
}

/**
 * What the import of these new CFDI (ids of the profile) settles about SAT status: each takes the
 * status SAT's metadata already gave its UUID, then every substitution they complete presumes its
 * original cancelled on the substitute's date, unless a source already spoke for the original.
 */
export async function settleImportedStatus(tx: Tx, profileId: string, uuids: string[]): Promise<void> {
  if (!uuids.length) return;
  const at = new Date();
  const metadata = await metadataByUuids(tx, profileId, uuids);
  const rows = metadata.length
    ? await statusesByUuids(
        tx,
        profileId,
        metadata.map((m) => m.uuid),
      )
    : [];
  const byUuid = new Map(rows.map((r) => [r.uuid, r]));
  await applyStatusWords(
    tx,
    profileId,
    metadata.flatMap((m) => {
      const row = byUuid.get(m.uuid);
      return row
        ? [
            {
              row,
              incoming: {
                estatus: m.estatus,
                fuente: 'metadata' as const,
                fechaCancelacion: m.fechaCancelacion,
              },
            },
          ]
        : [];
    }),
    at,
  );
  await presumeSubstitutions(tx, profileId, uuids, at);
}

/**
 * Every substitution (04, same issuer) in which the profile's CFDI with these UUIDs take part, as
 * original or substitute, presumes its original cancelled on the substitute's date, unless a source
 * already spoke for the original.
 */
async function presumeSubstitutions(tx: Tx, profileId: string, uuids: string[], at: Date): Promise<void> {
  const pairs = await substitutionsOf(tx, profileId, uuids);
  // One word per original (an original substituted twice is presumed cancelled by the first).
  const seen = new Set<string>();
  await applyStatusWords(
    tx,
    profileId,
    pairs
      .filter((p) => !seen.has(p.originalId) && seen.add(p.originalId))
      .map((p) => ({
        row: {
          id: p.originalId,
          estatusSat: p.estatusSat,
          estatusFuente: p.estatusFuente,
          fechaCancelacion: p.fechaCancelacion,
        },
        incoming: { estatus: 'cancelado', fuente: 'sustitucion', fechaCancelacion: p.substituteFecha },
      })),
    at,
  );
}

/**
 * The substitutions among CFDI stored before the SAT status existed, presumed as an import presumes
 * them, `batch` substitutes per transaction: run at server start and by `pnpm db:backfill`;
 * idempotent (a presumed original has a source, so it is not found again). Returns how many
 * substitutes it went through.
 */
export async function backfillSubstitutions(db: Db, opts: { batch?: number } = {}): Promise<number> {
  const batch = opts.batch ?? 200;
  let done = 0;
  for (;;) {
    const found = await db.transaction(async (tx) => {
      const rows = await unpresumedSubstitutions(tx, batch);
      for (const [profileId, subs] of groupBy(rows, (r) => r.profileId)) {
        await presumeSubstitutions(
          tx,
          profileId,
          subs.map((s) => s.substituteUuid),
          new Date(),
        );
      }
      return rows.length;
    });
    done += found;
    if (found < batch) return done;
  }
}
