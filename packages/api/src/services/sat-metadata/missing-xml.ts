// GET /api/profiles/{id}/sat-metadata/missing: the CFDI SAT's metadata lists for the profile whose
// XML Folio does not have (docs/sat-status.md), so the user can download and import them.
import { missingXml } from '@folio/db/queries/sat-status';
import type { Context } from '../../context';
import { badRequest } from '../../errors';
import { authorizeProfile } from '../profiles/access';
import { monthRange, yearRange } from '../reports/rules';

export async function listMissingXml(
  ctx: Context,
  userId: string,
  profileRef: string,
  q: { año?: number; mes?: number },
) {
  const profile = await authorizeProfile(ctx, userId, profileRef, 'read');
  if (q.mes !== undefined && q.año === undefined) throw badRequest('mes needs año', 'mes_without_año');
  const range = q.año === undefined ? {} : q.mes === undefined ? yearRange(q.año) : monthRange(q.año, q.mes);
  const rows = await missingXml(ctx.db, profile.id, range);
  return rows.map((r) => ({
    uuid: r.uuid,
    rfc_emisor: r.rfcEmisor,
    nombre_emisor: r.nombreEmisor,
    rfc_receptor: r.rfcReceptor,
    nombre_receptor: r.nombreReceptor,
    fecha: r.fechaEmision,
    monto: r.monto,
    efecto: r.efecto,
    estatus: r.estatus,
    fecha_cancelacion: r.fechaCancelacion,
  }));
}
