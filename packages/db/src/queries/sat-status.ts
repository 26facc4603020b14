// The SAT status of stored CFDI and the metadata lines SAT listed for a profile (docs/sat-status.md).
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf, type Tx } from '../client';
import { cfdis, satMetadata } from '../schema';
import { inList } from './in-list';
import { insertFromRecords, updateFromRecords } from './recordset';

const STATUS = {
  id: cfdis.id,
  uuid: cfdis.uuid,
  side: cfdis.side,
  profileId: cfdis.profileId,
  userId: cfdis.userId,
  rfcEmisor: cfdis.rfcEmisor,
  rfcReceptor: cfdis.rfcReceptor,
  estatusSat: cfdis.estatusSat,
  estatusFuente: cfdis.estatusFuente,
  fechaCancelacion: cfdis.fechaCancelacion,
  estatusFecha: cfdis.estatusFecha,
};
export type StatusRow = Pick<typeof cfdis.$inferSelect, keyof typeof STATUS>;

/**
 * The status of the profile's CFDI with these UUIDs, locked until the transaction ends (in UUID
 * order, so two writers never wait on each other crosswise): a status is decided from what it was,
 * and a concurrent upload must not decide from a status about to change.
 */
export function statusesByUuids(db: Executor, profileId: string, uuids: string[]): Promise<StatusRow[]> {
  if (!uuids.length) return Promise.resolve([]);
  return db
    .select(STATUS)
    .from(cfdis)
    .where(and(eq(cfdis.profileId, profileId), inList(cfdis.uuid, uuids)))
    .orderBy(asc(cfdis.uuid))
    .for('update');
}

/** A CFDI's status by id, locked until the transaction ends. */
export async function statusById(db: Executor, id: string): Promise<StatusRow | undefined> {
  const [row] = await db.select(STATUS).from(cfdis).where(eq(cfdis.id, id)).for('update');
  return row;
}

export type NewStatus = Pick<StatusRow, 'id' | 'estatusSat' | 'estatusFuente' | 'fechaCancelacion'> & {
  estatusFecha: Date;
};

/** Writes each CFDI's new status, one statement for all. */
export async function saveStatuses(tx: Executor, rows: NewStatus[]): Promise<void> {
  await updateFromRecords(
    tx,
    cfdis,
    ['id'],
    rows.map((r) => ({ ...r, updatedAt: r.estatusFecha })),
  );
}

export type MetadataRow = typeof satMetadata.$inferSelect;
export type NewMetadata = typeof satMetadata.$inferInsert;

/** The metadata lines already stored for these UUIDs. */
export function metadataByUuids(db: Executor, profileId: string, uuids: string[]): Promise<MetadataRow[]> {
  if (!uuids.length) return Promise.resolve([]);
  return db
    .select()
    .from(satMetadata)
    .where(and(eq(satMetadata.profileId, profileId), inList(satMetadata.uuid, uuids)));
}

/**
 * Stores metadata lines (distinct UUIDs), the newest file's columns over the older's, except that a
 * cancellation stays: SAT's `cancelado` is final, an older snapshot saying vigente does not revert it.
 */
export async function upsertMetadata(tx: Tx, rows: NewMetadata[]): Promise<void> {
  const keep = (col: string) =>
    sql.raw(
      `${col} = case when sat_metadata.estatus = 'cancelado' then sat_metadata.${col} else excluded.${col} end`,
    );
  const refresh = (col: string) => sql.raw(`${col} = coalesce(excluded.${col}, sat_metadata.${col})`);
  const columns = [
    'rfc_emisor',
    'nombre_emisor',
    'rfc_receptor',
    'nombre_receptor',
    'fecha_emision',
    'monto',
    'efecto',
  ];
  await insertFromRecords(
    tx,
    satMetadata,
    rows,
    sql`on conflict (profile_id, uuid) do update set ${sql.join(
      [
        ...columns.map(refresh),
        keep('estatus'),
        keep('fecha_cancelacion'),
        sql.raw('updated_at = excluded.updated_at'),
      ],
      sql`, `,
    )}`,
  );
}

/**
 * The UUIDs whose payment state a status change of these CFDI moves: their own, the invoices their
 * payment applications pay and the invoices they credit (E, 01).
 */
export async function paymentKeysOf(db: Executor, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const list = JSON.stringify(ids);
  const rows = rowsOf<{ uuid: string }>(
    await db.execute(sql`
      select c.uuid from cfdis c where c.id in (select jsonb_array_elements_text(${list}::jsonb))
      union select pa.related_uuid from payment_applications pa
        where pa.rep_cfdi_id in (select jsonb_array_elements_text(${list}::jsonb))
      union select cr.related_uuid from cfdi_relations cr
        where cr.tipo_relacion = '01' and cr.cfdi_id in (select jsonb_array_elements_text(${list}::jsonb))`),
  );
  return rows.map((r) => r.uuid);
}

/** A substitution (TipoRelacion 04, same issuer) both of whose CFDI the profile holds. */
export interface SubstitutionPair {
  originalId: string;
  originalUuid: string;
  estatusSat: 'vigente' | 'cancelado' | 'desconocido';
  estatusFuente: StatusRow['estatusFuente'];
  fechaCancelacion: string | null;
  substituteUuid: string;
  substituteFecha: string;
}

/**
 * The substitutions in which any of the profile's CFDI with these UUIDs takes part, as original or
 * as substitute, the originals locked (their status is decided from what it is); a cancelled
 * substitute substitutes nothing.
 */
export async function substitutionsOf(
  db: Executor,
  profileId: string,
  uuids: string[],
): Promise<SubstitutionPair[]> {
  if (!uuids.length) return [];
  const list = JSON.stringify(uuids);
  return rowsOf<SubstitutionPair>(
    await db.execute(sql`
      select o.id as "originalId", o.uuid as "originalUuid", o.estatus_sat as "estatusSat",
        o.estatus_fuente as "estatusFuente", o.fecha_cancelacion as "fechaCancelacion",
        s.uuid as "substituteUuid", s.fecha as "substituteFecha"
      from cfdi_relations cr
      join cfdis s on s.id = cr.cfdi_id
      join cfdis o on o.profile_id = cr.profile_id and o.uuid = cr.related_uuid and o.rfc_emisor = s.rfc_emisor
      where cr.profile_id = ${profileId} and cr.tipo_relacion = '04' and o.id <> s.id
        and s.estatus_sat <> 'cancelado'
        and (s.uuid in (select jsonb_array_elements_text(${list}::jsonb))
          or o.uuid in (select jsonb_array_elements_text(${list}::jsonb)))
      order by s.fecha, s.uuid
      for update of o`),
  );
}

/** Metadata lines without a stored CFDI: SAT knows them, Folio lacks their XML. */
const missingWhere = (profileId: string, from?: string, to?: string): SQL =>
  and(
    eq(satMetadata.profileId, profileId),
    sql`not exists (select 1 from cfdis c where c.profile_id = ${satMetadata.profileId} and c.uuid = ${satMetadata.uuid})`,
    from ? sql`${satMetadata.fechaEmision} >= ${from}` : undefined,
    to ? sql`${satMetadata.fechaEmision} < ${to}` : undefined,
  )!;

/** The missing XML of a profile, emitted in [from, to) when given, oldest first. */
export function missingXml(db: Executor, profileId: string, range: { from?: string; to?: string }) {
  return db
    .select()
    .from(satMetadata)
    .where(missingWhere(profileId, range.from, range.to))
    .orderBy(asc(satMetadata.fechaEmision), asc(satMetadata.uuid));
}

/** Something a report of the month must say about the SAT status of its CFDI (docs/sat-status.md). */
export interface StatusNotice {
  kind:
    | 'desconocido'
    | 'sin_xml'
    | 'sustituido'
    | 'sustituido_vigente'
    | 'cancelado_con_abonos'
    | 'complementaria';
  /** 'YYYY-MM' */
  month: string;
  uuid: string | null;
  /** The substitute, the payment or note (its UUID, or 'manual'), depending on the kind. */
  other: string | null;
  fechaCancelacion: string | null;
  n: number;
}

/** Every StatusNotice of the profile's months in [from, to), in one statement. */
export async function statusNotices(
  db: Executor,
  r: { profileId: string; from: string; to: string },
): Promise<StatusNotice[]> {
  const inRange = (col: string) => sql`${sql.raw(col)} >= ${r.from} and ${sql.raw(col)} < ${r.to}`;
  const rows = rowsOf<StatusNotice & { n: string | number }>(
    await db.execute(sql`
      select 'desconocido' as kind, left(c.fecha, 7) as month, null as uuid, null as other,
        null as "fechaCancelacion", count(*) as n
      from cfdis c
      where c.profile_id = ${r.profileId} and ${inRange('c.fecha')} and c.estatus_sat = 'desconocido'
      group by left(c.fecha, 7)
      union all
      select 'sin_xml', left(m.fecha_emision, 7), null, null, null, count(*)
      from sat_metadata m
      where m.profile_id = ${r.profileId} and ${inRange('m.fecha_emision')} and m.estatus = 'vigente'
        and not exists (select 1 from cfdis c where c.profile_id = m.profile_id and c.uuid = m.uuid)
      group by left(m.fecha_emision, 7)
      union all
      select case when o.estatus_sat = 'cancelado' then 'sustituido' else 'sustituido_vigente' end,
        case when ${inRange('o.fecha')} then left(o.fecha, 7) else left(s.fecha, 7) end,
        o.uuid, s.uuid, null, 1
      from cfdi_relations cr
      join cfdis s on s.id = cr.cfdi_id
      join cfdis o on o.profile_id = cr.profile_id and o.uuid = cr.related_uuid and o.rfc_emisor = s.rfc_emisor
      where cr.profile_id = ${r.profileId} and cr.tipo_relacion = '04' and o.id <> s.id
        and (${inRange('o.fecha')} or ${inRange('s.fecha')})
        and ((o.estatus_sat = 'cancelado' and o.estatus_fuente = 'sustitucion') or o.estatus_sat <> 'cancelado')
        and s.estatus_sat <> 'cancelado'
      union all
      select 'cancelado_con_abonos', left(pa.fecha_pago, 7), inv.uuid, rep.uuid, null, 1
      from cfdis inv
      join payment_applications pa on pa.profile_id = inv.profile_id and pa.related_uuid = inv.uuid
      join cfdis rep on rep.id = pa.rep_cfdi_id and rep.estatus_sat <> 'cancelado'
      where inv.profile_id = ${r.profileId} and inv.estatus_sat = 'cancelado' and ${inRange('pa.fecha_pago')}
      union all
      select 'cancelado_con_abonos', left(mp.fecha_pago, 7), inv.uuid, 'manual', null, 1
      from cfdis inv join manual_payments mp on mp.cfdi_id = inv.id
      where inv.profile_id = ${r.profileId} and inv.estatus_sat = 'cancelado' and ${inRange('mp.fecha_pago')}
      union all
      select 'cancelado_con_abonos', left(n.fecha, 7), inv.uuid, n.uuid, null, 1
      from cfdis inv
      join cfdi_relations cr on cr.profile_id = inv.profile_id and cr.related_uuid = inv.uuid and cr.tipo_relacion = '01'
      join cfdis n on n.id = cr.cfdi_id and n.tipo_comprobante = 'E' and n.estatus_sat <> 'cancelado'
      where inv.profile_id = ${r.profileId} and inv.estatus_sat = 'cancelado' and ${inRange('n.fecha')}
      union all
      select 'complementaria', left(c.fecha, 7), c.uuid, null, c.fecha_cancelacion, 1
      from cfdis c
      where c.profile_id = ${r.profileId} and c.tipo_comprobante <> 'P' and ${inRange('c.fecha')}
        and c.estatus_sat = 'cancelado' and left(c.fecha_cancelacion, 7) > left(c.fecha, 7)
      union all
      select distinct 'complementaria', left(pa.fecha_pago, 7), c.uuid, null, c.fecha_cancelacion, 1
      from cfdis c join payment_applications pa on pa.rep_cfdi_id = c.id
      where c.profile_id = ${r.profileId} and c.tipo_comprobante = 'P' and ${inRange('pa.fecha_pago')}
        and c.estatus_sat = 'cancelado' and left(c.fecha_cancelacion, 7) > left(pa.fecha_pago, 7)`),
  );
  return rows.map((row) => ({ ...row, n: Number(row.n) }));
}

/**
 * Up to `limit` substitutes (04, same issuer) whose original no source has spoken for: what the
 * substitution back-fill presumes for CFDI stored before the SAT status existed.
 */
export async function unpresumedSubstitutions(
  db: Executor,
  limit: number,
): Promise<{ profileId: string; substituteUuid: string }[]> {
  return rowsOf(
    await db.execute(sql`
      select distinct s.profile_id as "profileId", s.uuid as "substituteUuid"
      from cfdi_relations cr
      join cfdis s on s.id = cr.cfdi_id
      join cfdis o on o.profile_id = cr.profile_id and o.uuid = cr.related_uuid and o.rfc_emisor = s.rfc_emisor
      where cr.tipo_relacion = '04' and o.id <> s.id and o.estatus_fuente is null
        and s.estatus_sat <> 'cancelado'
      limit ${limit}`),
  );
}
