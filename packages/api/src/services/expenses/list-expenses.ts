import { listExpenses as queryExpenses } from '@folio/db/queries/expenses';
import type { Context } from '../../context';
import { toExpense } from '../../schemas/expense';
import { paginationOf } from '../../schemas/pagination';
import { authorizeProfile } from '../profiles/access';

export interface ExpenseQuery {
  profileId?: string;
  mes?: number;
  año?: number;
  regimen_fiscal?: string;
  tipo?: 'PUE' | 'PPD' | 'COMPLEMENTO_PAGO';
  categoria?: string;
  page: number;
  limit: number;
  search?: string;
  tipo_comprobante?: 'I' | 'E' | 'P' | 'T' | 'N';
}

export async function listExpenses(ctx: Context, userId: string, q: ExpenseQuery) {
  const profile = q.profileId ? await authorizeProfile(ctx, userId, q.profileId, 'read') : undefined;
  const { rows, total } = await queryExpenses(
    ctx.db,
    {
      userId,
      profileId: profile?.id,
      mes: q.mes,
      anio: q.año,
      regimenFiscal: q.regimen_fiscal,
      tipo: q.tipo,
      categoria: q.categoria,
      search: q.search,
      tipoComprobante: q.tipo_comprobante,
    },
    { limit: q.limit, offset: (q.page - 1) * q.limit },
  );
  return { data: rows.map(toExpense), pagination: paginationOf(total, q.page, q.limit) };
}
