import { type ExpenseListFilter, listExpenses as queryExpenses } from '@folio/db/queries/expenses';
import type { Context } from '../../context';
import { paginationOf } from '../pagination';
import { listOfProfile } from '../profiles/listing-access';
import { toExpense } from './expense-dto';

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
  estatus_sat?: 'vigente' | 'cancelado' | 'desconocido';
}

/** The query's filters as the SQL takes them (the listing and its export select the same rows). */
export function expenseFilter(
  userId: string,
  profileId: string | undefined,
  q: Omit<ExpenseQuery, 'page' | 'limit' | 'profileId'>,
): ExpenseListFilter {
  return {
    userId,
    profileId,
    mes: q.mes,
    anio: q.año,
    regimenFiscal: q.regimen_fiscal,
    tipo: q.tipo,
    categoria: q.categoria,
    search: q.search,
    tipoComprobante: q.tipo_comprobante,
    estatusSat: q.estatus_sat,
  };
}

export async function listExpenses(ctx: Context, userId: string, q: ExpenseQuery) {
  const { rows, total, exact } = await listOfProfile(ctx, userId, q.profileId, (profileId) =>
    queryExpenses(ctx.db, expenseFilter(userId, profileId, q), {
      limit: q.limit,
      offset: (q.page - 1) * q.limit,
    }),
  );
  return { data: rows.map(toExpense), pagination: paginationOf(total, q.page, q.limit, exact) };
}
