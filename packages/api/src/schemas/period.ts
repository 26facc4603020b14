import type { PeriodRow } from '@folio/db/queries/expenses';
import { z } from 'zod';

export const Period = z
  .object({
    id: z.string(),
    profile_id: z.string(),
    año: z.number(),
    mes: z.number(),
    estado: z.enum(['ABIERTO', 'CERRADO']),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Period' });

export function toPeriod(row: PeriodRow): z.infer<typeof Period> {
  return {
    id: row.id,
    profile_id: row.profileId,
    año: row.anio,
    mes: row.mes,
    estado: row.estado,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
