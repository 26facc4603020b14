import { DEFAULT_VALIDATION_FLAGS } from '@folio/cfdi';
import type { ProfileRow } from '@folio/db/queries/profiles';
import type { Profile } from '../../schemas/profile';

export function toProfile(row: ProfileRow): Profile {
  return {
    id: row.id,
    user_id: row.userId,
    nombre: row.nombre,
    rfc: row.rfc,
    tipo_persona: row.tipoPersona,
    regimenes_fiscales: row.regimenesFiscales,
    validaciones_habilitadas: { ...DEFAULT_VALIDATION_FLAGS, ...row.validacionesHabilitadas },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    frozen: row.frozen,
    ...(row.frozenReason ? { frozen_reason: row.frozenReason } : {}),
    frozen_at: row.frozenAt?.toISOString() ?? null,
  };
}
