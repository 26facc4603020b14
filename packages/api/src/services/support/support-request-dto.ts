import type { SupportRequestRow } from '@folio/db/queries/support';
import type { z } from 'zod';
import type { SupportRequest, SupportRequestCreated } from '../../schemas/support';

export const toSupportRequestCreated = (r: SupportRequestRow): z.infer<typeof SupportRequestCreated> => ({
  id: r.id,
  folio: r.folio,
  prioridad: r.prioridad,
  respuesta_esperada_antes_de: r.respuestaEsperadaAntesDe.toISOString(),
});

export const toSupportRequest = (r: SupportRequestRow): z.infer<typeof SupportRequest> => ({
  ...toSupportRequestCreated(r),
  asunto: r.asunto,
  mensaje: r.mensaje,
  profile_id: r.profileId,
  plan: r.plan,
  created_at: r.createdAt.toISOString(),
});
