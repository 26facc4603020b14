import {
  ExpenseExportQuery,
  type ExportFile,
  exportExpenses,
  exportInvoices,
  InvoiceExportQuery,
  invoicePdf as printInvoice,
} from '@folio/api';
import type { Context } from 'hono';
import { type FileCall, type FileHandler, principalOf, queryInput } from './file-handler';
import type { AppEnv } from './types';

/** The listing as an xlsx or csv attachment, its bytes sent as they are written. */
const listingExport = (
  file: (c: Context<AppEnv>, call: FileCall, userId: string) => Promise<ExportFile>,
): FileHandler => ({
  async run(c, call) {
    const { body, headers } = await file(c, call, principalOf(call).user.id);
    return new Response(body, { status: 200, headers });
  },
});

/** GET /api/invoices/export: the income listing's filters, every matching row. */
export const invoicesExport = listingExport((c, call, userId) =>
  exportInvoices(call.ctx, userId, queryInput(c, InvoiceExportQuery)),
);

/** GET /api/expenses/export: the expense listing's filters, every matching row. */
export const expensesExport = listingExport((c, call, userId) =>
  exportExpenses(call.ctx, userId, queryInput(c, ExpenseExportQuery)),
);

/** GET /api/invoices/{id}/pdf: one CFDI's printed representation. */
export const invoicePdf: FileHandler = {
  async run(c, call) {
    const file = await printInvoice(call.ctx, principalOf(call).user.id, c.req.param('id') ?? '');
    return new Response(new Uint8Array(file.body), { status: 200, headers: file.headers });
  },
};
