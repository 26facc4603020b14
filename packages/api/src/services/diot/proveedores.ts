import { getEntitlements } from '@folio/billing';
import { isValidRfc, normalizeRfc } from '@folio/cfdi';
import { upsertDiotOverride } from '@folio/db/queries/diot';
import type { Context } from '../../context';
import { badRequest, planRequired } from '../../errors';
import { authorizeProfile } from '../profiles/access';
import { OPERACIONES_PERMITIDAS, type TipoOperacion, terceroOfKey } from '../reports/compute/diot-tipo';
import { includes } from '../reports/compute/monthly';
import { reportLevelRequired } from '../reports/rules';

// PUT /api/profiles/{id}/diot/proveedores/{rfc}: the user's word on a DIOT supplier, which the
// report then uses instead of the derived tipo de operación (and, for 8 % IVA, of the region the
// supplier's postal code tells).

export interface DiotProveedorInput {
  profileId: string;
  /** A Mexican RFC, XAXX010101000 for the global row, or a foreign supplier's tax id. */
  rfc: string;
  tipo_operacion: TipoOperacion | null;
  region_8?: 'norte' | 'sur' | null;
}

export async function setDiotProveedor(ctx: Context, userId: string, input: DiotProveedorInput) {
  const [{ limits }, profile] = await Promise.all([
    getEntitlements(ctx.db, userId),
    authorizeProfile(ctx, userId, input.profileId, 'write'),
  ]);
  if (!includes(limits.reports, 'advanced')) {
    throw planRequired(reportLevelRequired('The DIOT', 'advanced'));
  }
  const rfcLike = normalizeRfc(input.rfc);
  const clave = isValidRfc(rfcLike) ? rfcLike : input.rfc.trim();
  const tercero = terceroOfKey(clave, isValidRfc);
  const tipo = input.tipo_operacion;
  if (tipo && !OPERACIONES_PERMITIDAS[tercero].includes(tipo)) {
    throw badRequest(
      `tipo_operacion ${tipo} is not allowed for tipo de tercero ${tercero} (allowed: ` +
        `${OPERACIONES_PERMITIDAS[tercero].join(', ')})`,
      'tipo_operacion_not_allowed',
    );
  }
  const row = await upsertDiotOverride(ctx.db, {
    profileId: profile.id,
    clave,
    tipoOperacion: tipo,
    region8: input.region_8 ?? null,
  });
  return {
    message: 'DIOT supplier saved',
    data: {
      rfc: row.clave,
      tipo_tercero: tercero,
      tipo_operacion: row.tipoOperacion,
      region_8: row.region8,
      updated_at: row.updatedAt.toISOString(),
    },
  };
}
