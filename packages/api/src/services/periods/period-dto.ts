import type { PeriodRow } from '@folio/db/queries/expenses';
import type { z } from 'zod';
import type { Period } from '../../schemas/period';

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
