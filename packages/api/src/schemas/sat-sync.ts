import { z } from 'zod';
import { satStatusFields } from './invoice';

// SAT sync jobs on the wire (integrations.md §1 "Sync jobs", docs/sat-sync.md#sync-jobs).

const Fecha = z.string().meta({ description: 'YYYY-MM-DD, Mexico City calendar', example: '2026-01-01' });
export const SyncTipo = z.enum(['emitidos', 'recibidos', 'ambos']);
export const SyncContenido = z.enum(['cfdi', 'metadata', 'ambos']);
export const SyncEstado = z.enum([
  'pendiente',
  'solicitada',
  'en_proceso',
  'descargando',
  'importando',
  'terminada',
  'error',
]);

/** POST /profiles/{profileId}/sat-sync: the period and what to download. */
export const SyncJobCreate = z
  .object({
    profileId: z.string().min(1).max(100),
    desde: Fecha,
    hasta: Fecha,
    tipo: SyncTipo,
    contenido: SyncContenido,
  })
  .meta({ example: { desde: '2026-01-01', hasta: '2026-01-31', tipo: 'ambos', contenido: 'ambos' } });

export const SyncJobCreated = z.object({ id: z.string(), estado: SyncEstado });

export const SyncRequest = z.object({
  id: z.string().nullable().meta({ description: "SAT's request id (null until SAT accepted it)" }),
  tipo: z.enum(['emitidos', 'recibidos']),
  contenido: z.enum(['cfdi', 'metadata']),
  desde: z.string(),
  hasta: z.string(),
  estado: z.string(),
  codigo: z.number().int().nullable(),
  mensaje: z.string().nullable(),
  intentos: z.number().int(),
});

export const SyncJob = z.object({
  id: z.string(),
  profile_id: z.string(),
  desde: z.string(),
  hasta: z.string(),
  tipo: SyncTipo,
  contenido: SyncContenido,
  origen: z.enum(['usuario', 'diario']),
  estado: SyncEstado,
  solicitudes: z.array(SyncRequest),
  cfdi: z.object({
    importados: z.number().int(),
    duplicados: z.number().int(),
    rechazados: z.number().int(),
    fuera_de_cuota: z.number().int(),
  }),
  metadata: z.object({
    vigentes: z.number().int(),
    cancelados: z.number().int(),
    faltantes: z.number().int(),
  }),
  error: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** POST /invoices/{id}/sat-status and /expenses/{id}/sat-status: SAT's answer and the CFDI's status. */
export const CfdiSatCheck = z.object({
  id: z.string(),
  uuid: z.string(),
  ...satStatusFields,
  sat: z
    .object({
      estado: z.enum(['vigente', 'cancelado', 'no_encontrado']),
      es_cancelable: z.string(),
      estatus_cancelacion: z.string(),
    })
    .meta({
      description: "SAT's status service answer (EsCancelable, EstatusCancelacion as SAT wrote them)",
    }),
});
