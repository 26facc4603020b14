import { DEFAULT_VALIDATION_FLAGS } from '@folio/cfdi';
import { z } from 'zod';
import { Timestamp, Uuid } from './formats';

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
export const ProfileFields = z
  .object({
    nombre: z.string().trim().min(1, 'nombre is required').max(200),
    rfc: z.string().trim().min(1, 'rfc is required').max(20),
    tipo_persona: TipoPersona,
    regimenes_fiscales: z
      .array(z.string().regex(/^\d{3}$/, 'regime codes are 3 digits'))
      .max(19)
      .optional(),
    validaciones_habilitadas: Flags.partial().optional(),
  })
  .meta({
    example: {
      nombre: 'Herrería y Eléctricos',
      rfc: 'H&E951128469',
      tipo_persona: 'MORAL',
      regimenes_fiscales: ['601'],
      validaciones_habilitadas: { bloquearSiRFCNoCoincide: true },
    },
  });

export const Profile = z
  .object({
    id: Uuid,
    user_id: Uuid,
    nombre: z.string(),
    rfc: z.string(),
    tipo_persona: TipoPersona,
    regimenes_fiscales: z.array(z.string()),
    validaciones_habilitadas: Flags,
    created_at: Timestamp,
    updated_at: Timestamp,
    frozen: z.boolean(),
    frozen_reason: z.enum(['PLAN_LIMIT']).optional(),
    frozen_at: Timestamp.nullable(),
  })
  .meta({
    id: 'Profile',
    example: {
      id: 'ee28334c-2b11-4bc9-b72d-c31a246548a9',
      user_id: 'b66444ed-90fa-4fa2-9bc3-d77994b73c1a',
      nombre: 'Herrería y Eléctricos',
      rfc: 'H&E951128469',
      tipo_persona: 'MORAL',
      regimenes_fiscales: ['601'],
      validaciones_habilitadas: DEFAULT_VALIDATION_FLAGS,
      created_at: '2025-03-01T16:00:00.000Z',
      updated_at: '2025-03-01T16:00:00.000Z',
      frozen: false,
      frozen_at: null,
    },
  });
export type Profile = z.infer<typeof Profile>;
