import { setImmediate } from 'node:timers/promises';
import { getEntitlements } from '@folio/billing';
import { cfdiRowsAfter, countCfdis, type ListCursor } from '@folio/db/queries/cfdis';
import { countExpenses, expenseRowsAfter } from '@folio/db/queries/expenses';
import type { Context } from '../../context';
import { badRequest, planRequired } from '../../errors';
import type { ExportFormat } from '../../schemas/export';
import { toInvoice } from '../cfdi/invoice-dto';
import { type InvoiceQuery, invoiceFilter } from '../cfdi/read-invoices';
import { toExpense } from '../expenses/expense-dto';
import { type ExpenseQuery, expenseFilter } from '../expenses/list-expenses';
import { authorizeProfile } from '../profiles/access';
import { type Column, EXPENSE_COLUMNS, type Exported, INVOICE_COLUMNS } from './columns';
import { attachmentOf, CONTENT_TYPES, EXCEL_EXPORT_REQUIRED, MAX_EXPORT_ROWS } from './rules';
import { csvFile, xlsxFile } from './writers';

/** Rows read per keyset page: small enough to hold, large enough that round trips do not dominate. */
const PAGE_ROWS = 1_000;
/**
 * Rows written between two turns of the event loop. Without them a CSV page is shaped and written
 * in one stretch (its stringifier never waits) that every other request waits behind; the xlsx
 * writer already gives turns while it waits for its deflater (docs/benchmarks.md, "Heavy requests").
 */
const ROWS_PER_TURN = 200;

type Filters<Q> = Omit<Q, 'page' | 'limit'> & { format: ExportFormat };

export interface ExportFile {
  filename: string;
  headers: Record<string, string>;
  body: ReadableStream<Uint8Array>;
}

/**
 * Rows in keyset pages of PAGE_ROWS, each page read when the writer has used the one before, with a
 * turn of the event loop every ROWS_PER_TURN rows.
 */
async function* keysetRows<R extends ListCursor, O>(
  read: (after: ListCursor | undefined) => Promise<R[]>,
  shape: (row: R) => O,
): AsyncGenerator<O> {
  let after: ListCursor | undefined;
  for (;;) {
    const page = await read(after);
    for (const [i, row] of page.entries()) {
      if (i > 0 && i % ROWS_PER_TURN === 0) await setImmediate();
      yield shape(row);
    }
    const last = page.at(-1);
    if (page.length < PAGE_ROWS || !last) return;
    after = { fecha: last.fecha, id: last.id };
  }
}

interface Listing<R extends ListCursor, O> {
  what: 'facturas' | 'gastos';
  columns: Column<O>[];
  count: () => Promise<number>;
  read: (after: ListCursor | undefined) => Promise<R[]>;
  shape: (row: R) => O;
}

/**
 * The checks every export makes before its first byte (so they still answer with a status): the plan
 * for xlsx (csv is on every plan), then the size, counted first. Then the file, streamed.
 */
async function exportListing<R extends ListCursor, O>(
  ctx: Context,
  format: ExportFormat,
  rfc: string | undefined,
  period: { año?: number; mes?: number },
  listing: Listing<R, O>,
): Promise<ExportFile> {
  const max = ctx.config.maxExportRows ?? MAX_EXPORT_ROWS;
  const matching = await listing.count();
  if (matching > max) {
    throw badRequest(
      `The filters match ${matching.toLocaleString('en-US')} documents; an export holds at most ${max.toLocaleString('en-US')}: narrow them (profileId, año, mes, search…)`,
      'export_too_large',
    );
  }
  const { filename, disposition } = attachmentOf(listing.what, format, {
    rfc,
    año: period.año,
    mes: period.mes,
  });
  const rows = keysetRows(listing.read, listing.shape);
  const onError = (err: unknown) => ctx.log.error({ err, filename }, 'export failed mid-stream');
  const body =
    format === 'csv'
      ? csvFile(listing.columns, rows, onError)
      : xlsxFile(listing.columns, rows, listing.what, onError);
  return {
    filename,
    headers: { 'Content-Type': CONTENT_TYPES[format], 'Content-Disposition': disposition },
    body,
  };
}

/** The plan check and the profile (an id or an RFC the caller owns) every export starts with. */
async function prepare(ctx: Context, userId: string, q: { format: ExportFormat; profileId?: string }) {
  if (q.format === 'xlsx') {
    const { limits } = await getEntitlements(ctx.db, userId);
    if (!limits.exportExcel) throw planRequired(EXCEL_EXPORT_REQUIRED);
  }
  return q.profileId ? await authorizeProfile(ctx, userId, q.profileId, 'read') : undefined;
}

/** GET /api/invoices/export: the income listing, filtered the same way, as one file. */
export async function exportInvoices(ctx: Context, userId: string, q: Filters<InvoiceQuery>) {
  const profile = await prepare(ctx, userId, q);
  const filter = invoiceFilter(userId, profile?.id, q);
  return exportListing(ctx, q.format, profile?.rfc, q, {
    what: 'facturas',
    columns: INVOICE_COLUMNS,
    count: () => countCfdis(ctx.db, filter),
    read: (after) => cfdiRowsAfter(ctx.db, filter, after, PAGE_ROWS),
    shape: (row): Exported<ReturnType<typeof toInvoice>> => ({
      ...toInvoice(row, { id: row.profileId, nombre: row.profileNombre, rfc: row.profileRfc }),
      descuento: row.descuento,
    }),
  });
}

/** GET /api/expenses/export: received CFDI and manual expenses, filtered as the listing, as one file. */
export async function exportExpenses(ctx: Context, userId: string, q: Filters<ExpenseQuery>) {
  const profile = await prepare(ctx, userId, q);
  const filter = expenseFilter(userId, profile?.id, q);
  return exportListing(ctx, q.format, profile?.rfc, q, {
    what: 'gastos',
    columns: EXPENSE_COLUMNS,
    count: () => countExpenses(ctx.db, filter),
    read: (after) => expenseRowsAfter(ctx.db, filter, after, PAGE_ROWS),
    shape: (row) => ({ ...toExpense(row), descuento: row.descuento }),
  });
}
