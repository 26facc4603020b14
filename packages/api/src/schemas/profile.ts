import type { ProfileRow } from '@folio/db/queries/profiles';
import type { ValidationFlags } from '@folio/db/schema';
import { z } from 'zod';

export const DEFAULT_FLAGS: ValidationFlags = {
  validarRFCIngresos: true,
  validarRFCGastos: true,
  validarRegimenFiscal: true,
  validarUUIDDuplicado: true,
  bloquearSiRFCNoCoincide: false,
  bloquearSiRegimenNoCoincide: false,
};

const Flags = z.object({
  validarRFCIngresos: z.boolean(),
  validarRFCGastos: z.boolean(),
  validarRegimenFiscal: z.boolean(),
  validarUUIDDuplicado: z.boolean(),
  bloquearSiRFCNoCoincide: z.boolean(),
  bloquearSiRegimenNoCoincide: z.boolean(),
});

export const TipoPersona = z.enum(['FISICA', 'MORAL'], 'must be FISICA or MORAL');

/** Writable fields. The RFC format is checked by the service so a bad one is a 400, not a 422. */
export const ProfileFields = z.object({
  nombre: z.string().trim().min(1, 'nombre is required').max(200),
  rfc: z.string().trim().min(1, 'rfc is required').max(20),
  tipo_persona: TipoPersona,
  regimenes_fiscales: z
    .array(z.string().regex(/^\d{3}$/, 'regime codes are 3 digits'))
    .max(19)
    .optional(),
  validaciones_habilitadas: Flags.partial().optional(),
});

export const Profile = z
  .object({
    id: z.string(),
    user_id: z.string(),
    nombre: z.string(),
    rfc: z.string(),
    tipo_persona: TipoPersona,
    regimenes_fiscales: z.array(z.string()),
    validaciones_habilitadas: Flags,
    created_at: z.string(),
    updated_at: z.string(),
    frozen: z.boolean(),
    frozen_reason: z.enum(['PLAN_LIMIT']).optional(),
    frozen_at: z.string().nullable(),
  })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof Profile>;

export function toProfile(row: ProfileRow): Profile {
  return {
    id: row.id,
    user_id: row.userId,
    nombre: row.nombre,
    rfc: row.rfc,
    tipo_persona: row.tipoPersona,
    regimenes_fiscales: row.regimenesFiscales,
    validaciones_habilitadas: { ...DEFAULT_FLAGS, ...row.validacionesHabilitadas },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    frozen: row.frozen,
    ...(row.frozenReason ? { frozen_reason: row.frozenReason } : {}),
    frozen_at: row.frozenAt?.toISOString() ?? null,
  };
}
