import { z } from 'zod';
import { PROFILE_ALIAS, profileRefFields, withAliases } from './aliases';
import { Timestamp, Uuid } from './formats';

export const MAX_ASUNTO_LENGTH = 200;
export const MAX_MENSAJE_LENGTH = 10_000;

// The subject becomes part of the support mail's subject line: one line, no control characters.
// The message may hold line breaks and tabs, never another control character (NUL included).
const CONTROL = /\p{Cc}/u;
const CONTROL_BUT_LAYOUT = /[^\P{Cc}\t\n\r]/u;

export const SupportRequestFields = z.object({
  asunto: z
    .string()
    .trim()
    .min(1, 'asunto is required')
    .max(MAX_ASUNTO_LENGTH)
    .refine((s) => !CONTROL.test(s), 'asunto is one line without control characters'),
  mensaje: z
    .string()
    .trim()
    .min(1, 'mensaje is required')
    .max(MAX_MENSAJE_LENGTH)
    .refine(
      (s) => !CONTROL_BUT_LAYOUT.test(s),
      'mensaje holds no control characters but line breaks and tabs',
    ),
  ...profileRefFields,
});

/** POST /api/support/requests: `{asunto, mensaje, profileId?}` (integrations §3); `profile_id` also works. */
export const SupportRequestCreate = withAliases(SupportRequestFields, PROFILE_ALIAS).meta({
  example: {
    asunto: 'No puedo descargar el PDF de una factura',
    mensaje: 'Al descargar la factura con folio A-123 recibo un error 503.',
    profileId: 'ee28334c-2b11-4bc9-b72d-c31a246548a9',
  },
});
export type SupportRequestInput = z.input<typeof SupportRequestCreate>;

export const Prioridad = z.enum(['normal', 'alta']);

/** The 201 answer's `data`. */
export const SupportRequestCreated = z
  .object({
    id: Uuid,
    folio: z.string(),
    prioridad: Prioridad,
    respuesta_esperada_antes_de: Timestamp.meta({
      description: 'Promised answer time: business hours Monday–Friday 09:00–18:00, Mexico City',
    }),
  })
  .meta({
    id: 'SupportRequestCreated',
    example: {
      id: '7d1e4c2a-9b3f-4e6d-8a5c-1f2e3d4c5b6a',
      folio: 'SOP-2026-000123',
      prioridad: 'alta',
      respuesta_esperada_antes_de: '2026-11-30T17:30:00.000Z',
    },
  });

/** One request in GET /api/support/requests. */
export const SupportRequest = SupportRequestCreated.extend({
  asunto: z.string(),
  mensaje: z.string(),
  profile_id: Uuid.nullable(),
  plan: z
    .enum(['FREE', 'BASIC', 'PRO', 'ENTERPRISE'])
    .meta({ description: 'The plan when the request was made' }),
  created_at: Timestamp,
}).meta({
  id: 'SupportRequest',
  example: {
    ...(SupportRequestCreated.meta()?.example as object),
    asunto: 'No puedo descargar el PDF de una factura',
    mensaje: 'Al descargar la factura con folio A-123 recibo un error 503.',
    profile_id: 'ee28334c-2b11-4bc9-b72d-c31a246548a9',
    plan: 'PRO',
    created_at: '2026-11-27T22:30:00.000Z',
  },
});
