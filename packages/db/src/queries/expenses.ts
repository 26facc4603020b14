import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../client';
import { type accountingPeriods, cfdis, manualExpenses } from '../schema';
import { type CfdiListFilter, cfdiListWhere, containsPattern } from './cfdis';

export type PeriodRow = typeof accountingPeriods.$inferSelect;
export type ManualExpenseRow = typeof manualExpenses.$inferSelect;

export interface ExpenseListFilter extends Omit<CfdiListFilter, 'side'> {
  categoria?: string;
}

/** Manual expenses have no regime, payment method or category-less XML twin: those filters skip them. */
function manualWhere(f: ExpenseListFilter): SQL | undefined {
  if (f.regimenFiscal || f.tipo) return undefined;
  return and(
    f.profileId ? eq(manualExpenses.profileId, f.profileId) : eq(manualExpenses.userId, f.userId),
    f.anio !== undefined ? eq(manualExpenses.anio, f.anio) : undefined,
    f.mes !== undefined ? eq(manualExpenses.mes, f.mes) : undefined,
    f.categoria !== undefined ? eq(manualExpenses.categoria, f.categoria) : undefined,
    f.search ? sql`${manualExpenses.searchText} like ${containsPattern(f.search)}` : undefined,
  );
}

const nothing = sql`false`;

/** XML and manual expenses together, newest `fecha` first (id breaks ties), with the filtered total. */
export async function listExpenses(db: Db, f: ExpenseListFilter, page: { limit: number; offset: number }) {
  // XML expenses never carry a category, so a category filter leaves only manual ones.
  const xmlWhere = f.categoria !== undefined ? nothing : cfdiListWhere({ ...f, side: 'expense' });
  const manual = manualWhere(f) ?? nothing;
  const xml = db
    .select({
      id: cfdis.id,
      origin: sql<'XML' | 'MANUAL'>`'XML'`.as('origin'),
      profileId: cfdis.profileId,
      fecha: cfdis.fecha,
      mes: cfdis.mes,
      anio: cfdis.anio,
      total: cfdis.total,
      subtotal: cfdis.subtotal,
      iva: cfdis.iva,
      ivaAmount: cfdis.ivaAmount,
      retencionIvaAmount: cfdis.retencionIvaAmount,
      retencionIsrAmount: cfdis.retencionIsrAmount,
      isPaid: cfdis.isPaid,
      paymentDate: cfdis.paymentDate,
      concepto: cfdis.concepto,
      categoria: sql<string | null>`null::text`.as('categoria'),
      uuid: sql<string | null>`${cfdis.uuid}`.as('uuid'),
      tipo: sql<'PUE' | 'PPD' | 'COMPLEMENTO_PAGO' | null>`${cfdis.tipo}`.as('tipo'),
      rfcEmisor: sql<string | null>`${cfdis.rfcEmisor}`.as('rfc_emisor'),
      nombreEmisor: sql<string | null>`${cfdis.nombreEmisor}`.as('nombre_emisor'),
      rfcReceptor: sql<string | null>`${cfdis.rfcReceptor}`.as('rfc_receptor'),
      nombreReceptor: sql<string | null>`${cfdis.nombreReceptor}`.as('nombre_receptor'),
      createdAt: cfdis.createdAt,
      updatedAt: cfdis.updatedAt,
    })
    .from(cfdis)
    .where(xmlWhere);
  const typed = db
    .select({
      id: manualExpenses.id,
      origin: sql<'XML' | 'MANUAL'>`'MANUAL'`.as('origin'),
      profileId: manualExpenses.profileId,
      fecha: manualExpenses.fecha,
      mes: manualExpenses.mes,
      anio: manualExpenses.anio,
      total: manualExpenses.total,
      subtotal: manualExpenses.subtotal,
      iva: manualExpenses.iva,
      ivaAmount: manualExpenses.ivaAmount,
      retencionIvaAmount: sql<number | null>`null::numeric`.as('retencion_iva_amount'),
      retencionIsrAmount: sql<number | null>`null::numeric`.as('retencion_isr_amount'),
      isPaid: sql<boolean | null>`null::boolean`.as('is_paid'),
      paymentDate: sql<string | null>`null::text`.as('payment_date'),
      concepto: manualExpenses.concepto,
      categoria: manualExpenses.categoria,
      uuid: sql<string | null>`null::text`.as('uuid'),
      tipo: sql<'PUE' | 'PPD' | 'COMPLEMENTO_PAGO' | null>`null::text`.as('tipo'),
      rfcEmisor: sql<string | null>`null::text`.as('rfc_emisor'),
      nombreEmisor: sql<string | null>`null::text`.as('nombre_emisor'),
      rfcReceptor: sql<string | null>`null::text`.as('rfc_receptor'),
      nombreReceptor: sql<string | null>`null::text`.as('nombre_receptor'),
      createdAt: manualExpenses.createdAt,
      updatedAt: manualExpenses.updatedAt,
    })
    .from(manualExpenses)
    .where(manual);
  const [rows, xmlCount, manualCount] = await Promise.all([
    unionAll(xml, typed).orderBy(desc(sql`fecha`), desc(sql`id`)).limit(page.limit).offset(page.offset),
    db.select({ n: count() }).from(cfdis).where(xmlWhere),
    db.select({ n: count() }).from(manualExpenses).where(manual),
  ]);
  return { rows, total: (xmlCount[0]?.n ?? 0) + (manualCount[0]?.n ?? 0) };
}

export type ExpenseListRow = Awaited<ReturnType<typeof listExpenses>>['rows'][number];

export async function insertManualExpense(
  tx: Tx,
  row: typeof manualExpenses.$inferInsert,
): Promise<ManualExpenseRow> {
  const [stored] = await tx.insert(manualExpenses).values(row).returning();
  return stored!;
}
