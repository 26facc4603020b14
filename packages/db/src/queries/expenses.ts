import { and, eq, type SQL, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../client';
import { prepared } from '../prepared';
import { type accountingPeriods, cfdis, manualExpenses } from '../schema';
import {
  afterCursor,
  type Bound,
  byDictionary,
  type CfdiListFilter,
  cfdiListWhere,
  countedUpToCap,
  dictionaryCounted,
  type ListCursor,
  listedTotal,
  listParameters,
  newestFirst,
  newestMatchIds,
  pageParams,
  searchFilter,
  searching,
  wordsQuery,
} from './cfdis';

export type PeriodRow = typeof accountingPeriods.$inferSelect;
export type ManualExpenseRow = typeof manualExpenses.$inferSelect;

export interface ExpenseListFilter extends Omit<CfdiListFilter, 'side'> {
  categoria?: string;
}

/** Manual expenses have no regime, payment method, TipoDeComprobante, SAT status or category-less XML twin: those filters skip them. */
function manualWhere(f: Bound<ExpenseListFilter>): SQL | undefined {
  if (f.regimenFiscal || f.tipo || f.tipoComprobante || f.estatusSat) return undefined;
  return and(
    f.profileId ? eq(manualExpenses.profileId, f.profileId) : eq(manualExpenses.userId, f.userId),
    f.anio !== undefined ? eq(manualExpenses.anio, f.anio) : undefined,
    f.mes !== undefined ? eq(manualExpenses.mes, f.mes) : undefined,
    f.categoria !== undefined ? eq(manualExpenses.categoria, f.categoria) : undefined,
    // A handful of rows per profile, read by the list indexes: the words are taken as it searches.
    f.words ? sql`to_tsvector('es_plain', ${manualExpenses.concepto}) @@ ${wordsQuery(f.words)}` : undefined,
  );
}

const nothing = sql`false`;

/**
 * XML and manual expenses together, newest `fecha` first (id breaks ties), with the filtered total
 * (a search's counted past SEARCH_TOTAL_CAP on neither side: their sum says whether it passed). The
 * total rides on each row as `matching`, both counts as uncorrelated subqueries PostgreSQL runs once:
 * one statement where the page and its two counts were three (docs/benchmarks.md, "CPU per request");
 * a page past the end asks for the total alone.
 */
export async function listExpenses(db: Db, f: ExpenseListFilter, at: { limit: number; offset: number }) {
  const { values, bound, shape } = listParameters({ ...f, side: 'expense' as const });
  const search = searching(bound);
  const counted = async () => {
    const [[xml], [manual]] = await Promise.all([
      prepared(db, `countXmlExpenses:${shape}`, (c) => countXml(c, bound, search)).execute(values),
      prepared(db, `countManualExpenses:${shape}`, (c) => countManual(c, bound, search)).execute(values),
    ]);
    return (xml?.n ?? 0) + (manual?.n ?? 0);
  };
  const rows = await prepared(db, `listExpenses:${shape}`, (c) =>
    expenseRows(c, bound, undefined, expensesMatching(c, bound, search).as('matching'), true)
      .limit(pageParams.limit)
      .offset(pageParams.offset),
  ).execute({ ...values, ...at });
  const n = rows[0]?.matching ?? (at.offset > 0 ? await counted() : 0);
  return { rows, ...listedTotal(n, searching(values)) };
}

/** How many XML and manual expenses a listing filter matches, as one value. */
const expensesMatching = (c: Db, f: Bound<ExpenseFilter>, search: boolean) =>
  sql<number | null>`((${countXml(c, f, search)}) + (${countManual(c, f, search)}))::int`;

/** How many expenses (XML and manual) a listing filter matches (an export counts before it starts). */
export async function countExpenses(db: Db, f: ExpenseListFilter): Promise<number> {
  const values = searchFilter<ExpenseFilter>({ ...f, side: 'expense' });
  const [[xml], [manual]] = await Promise.all([countXml(db, values), countManual(db, values)]);
  return (xml?.n ?? 0) + (manual?.n ?? 0);
}

/** The next `limit` listed expenses after the cursor, in the listing's order (keyset pages for an export). */
export function expenseRowsAfter(db: Db, f: ExpenseListFilter, after: ListCursor | undefined, limit: number) {
  const values = searchFilter<ExpenseFilter>({ ...f, side: 'expense' });
  return expenseRows(db, values, after).limit(limit);
}

type ExpenseFilter = ExpenseListFilter & { side: 'expense' };

/** The XML or manual expenses a filter matches; a listing's search counted up to the cap (by the dictionary when it can). */
const countXml = (c: Db, f: Bound<ExpenseFilter>, capped = false) =>
  capped && f.categoria === undefined && byDictionary(f)
    ? dictionaryCounted(c, f)
    : countedUpToCap(c, cfdis, xmlWhere(f), capped);
const countManual = (c: Db, f: Bound<ExpenseFilter>, capped = false) =>
  countedUpToCap(c, manualExpenses, manualWhere(f) ?? nothing, capped);

/**
 * XML expenses never carry a category, so a category filter leaves only manual ones. A listing's
 * page (`paged`: its limit and offset bound) of a words search takes the newest offset + limit XML
 * matches by the dictionary when it can: no more of them can be on the page.
 */
const xmlWhere = (f: Bound<ExpenseFilter>, paged = false) =>
  f.categoria !== undefined
    ? nothing
    : paged && byDictionary(f)
      ? sql`${cfdis.id} in (${newestMatchIds(f)})`
      : cfdiListWhere(f);

/**
 * The expenses a filter matches, in the listing's order; `matching` is the listing's total on every
 * row, a null where nobody reads it (an export's keyset pages); `paged` as `xmlWhere` takes it.
 */
function expenseRows(
  db: Db,
  f: Bound<ExpenseFilter>,
  after?: ListCursor,
  matching = sql<number | null>`null::int`.as('matching'),
  paged = false,
) {
  const xml = db
    .select({
      matching,
      id: cfdis.id,
      origin: sql<'XML' | 'MANUAL'>`'XML'`.as('origin'),
      profileId: cfdis.profileId,
      fecha: cfdis.fecha,
      mes: cfdis.mes,
      anio: cfdis.anio,
      total: cfdis.total,
      subtotal: cfdis.subtotal,
      descuento: cfdis.descuento,
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
      tipoComprobante: sql<string | null>`${cfdis.tipoComprobante}`.as('tipo_comprobante'),
      moneda: cfdis.moneda,
      tipoCambio: cfdis.tipoCambio,
      rfcEmisor: sql<string | null>`${cfdis.rfcEmisor}`.as('rfc_emisor'),
      nombreEmisor: sql<string | null>`${cfdis.nombreEmisor}`.as('nombre_emisor'),
      rfcReceptor: sql<string | null>`${cfdis.rfcReceptor}`.as('rfc_receptor'),
      nombreReceptor: sql<string | null>`${cfdis.nombreReceptor}`.as('nombre_receptor'),
      estatusSat: sql<'vigente' | 'cancelado' | 'desconocido' | null>`${cfdis.estatusSat}`.as('estatus_sat'),
      fechaCancelacion: cfdis.fechaCancelacion,
      estatusFuente: sql<string | null>`${cfdis.estatusFuente}`.as('estatus_fuente'),
      estatusFecha: cfdis.estatusFecha,
      createdAt: cfdis.createdAt,
      updatedAt: cfdis.updatedAt,
    })
    .from(cfdis)
    .where(and(xmlWhere(f, paged), afterCursor(cfdis.fecha, cfdis.id, after)));
  const typed = db
    .select({
      matching,
      id: manualExpenses.id,
      origin: sql<'XML' | 'MANUAL'>`'MANUAL'`.as('origin'),
      profileId: manualExpenses.profileId,
      fecha: manualExpenses.fecha,
      mes: manualExpenses.mes,
      anio: manualExpenses.anio,
      total: manualExpenses.total,
      subtotal: manualExpenses.subtotal,
      descuento: sql<number | null>`null::numeric`.as('descuento'),
      iva: manualExpenses.iva,
      ivaAmount: manualExpenses.ivaAmount,
      retencionIvaAmount: sql<number | null>`null::numeric`.as('retencion_iva_amount'),
      retencionIsrAmount: sql<number | null>`null::numeric`.as('retencion_isr_amount'),
      isPaid: sql<boolean | null>`${manualExpenses.isPaid}`.as('is_paid'),
      paymentDate: sql<string | null>`${manualExpenses.paymentDate}`.as('payment_date'),
      concepto: manualExpenses.concepto,
      categoria: manualExpenses.categoria,
      uuid: sql<string | null>`null::text`.as('uuid'),
      tipo: sql<'PUE' | 'PPD' | 'COMPLEMENTO_PAGO' | null>`null::text`.as('tipo'),
      tipoComprobante: sql<string | null>`null::text`.as('tipo_comprobante'),
      // Typed in by the user in pesos.
      moneda: sql<string>`'MXN'`.as('moneda'),
      tipoCambio: sql<number | null>`null::numeric`.as('tipo_cambio'),
      rfcEmisor: sql<string | null>`${manualExpenses.rfcEmisor}`.as('rfc_emisor'),
      nombreEmisor: sql<string | null>`${manualExpenses.nombreEmisor}`.as('nombre_emisor'),
      rfcReceptor: sql<string | null>`null::text`.as('rfc_receptor'),
      nombreReceptor: sql<string | null>`null::text`.as('nombre_receptor'),
      estatusSat: sql<'vigente' | 'cancelado' | 'desconocido' | null>`null::text`.as('estatus_sat'),
      fechaCancelacion: sql<string | null>`null::text`.as('fecha_cancelacion'),
      estatusFuente: sql<string | null>`null::text`.as('estatus_fuente'),
      estatusFecha: sql<Date | null>`null::timestamptz`.as('estatus_fecha'),
      createdAt: manualExpenses.createdAt,
      updatedAt: manualExpenses.updatedAt,
    })
    .from(manualExpenses)
    .where(and(manualWhere(f) ?? nothing, afterCursor(manualExpenses.fecha, manualExpenses.id, after)));
  return unionAll(xml, typed).orderBy(...newestFirst(sql`fecha`, sql`id`, searching(f)));
}

/** A listed expense; its `matching` is the listing's total, not the expense's. */
export type ExpenseListRow = Omit<Awaited<ReturnType<typeof listExpenses>>['rows'][number], 'matching'>;

export async function insertManualExpense(
  tx: Tx,
  row: typeof manualExpenses.$inferInsert,
): Promise<ManualExpenseRow> {
  const [stored] = await tx.insert(manualExpenses).values(row).returning();
  return stored!;
}

/** The user's manual expense with this id; undefined when it does not exist or is someone else's. */
export async function findOwnManualExpense(
  db: Db,
  userId: string,
  id: string,
): Promise<ManualExpenseRow | undefined> {
  const [row] = await db
    .select()
    .from(manualExpenses)
    .where(and(eq(manualExpenses.id, id), eq(manualExpenses.userId, userId)));
  return row;
}

/** Sets the given fields of a manual expense (payment, IVA support, use). */
export async function updateManualExpense(
  db: Db,
  id: string,
  fields: Partial<
    Pick<
      ManualExpenseRow,
      | 'isPaid'
      | 'paymentDate'
      | 'uuidCfdi'
      | 'pedimento'
      | 'proveedorExtranjeroDigital'
      | 'formaPago'
      | 'usoIva'
      | 'tipoTercero'
      | 'idFiscal'
      | 'pais'
    >
  >,
): Promise<ManualExpenseRow | undefined> {
  const [row] = await db
    .update(manualExpenses)
    .set({ ...fields, updatedAt: new Date() })
    .where(eq(manualExpenses.id, id))
    .returning();
  return row;
}
