import {
  ExpenseExportFields,
  ExpenseExportQuery,
  exportExpenses,
  exportInvoices,
  InvoiceExportFields,
  InvoiceExportQuery,
} from '@folio/api';
import type { Hono } from 'hono';
import { queryInput, serviceRoute } from './service-route';
import type { AppDeps, AppEnv } from './types';

/**
 * GET /api/invoices/export and /api/expenses/export: the listing as an xlsx or csv attachment, its
 * bytes sent as they are written. Mounted before the REST layer, whose GET /invoices/{id} would
 * otherwise take `export` for an id.
 */
export function mountExports(app: Hono<AppEnv>, deps: AppDeps): void {
  app.get('/api/invoices/export', (c) =>
    serviceRoute(
      c,
      deps,
      async (ctx, auth) => {
        const file = await exportInvoices(ctx, auth.user.id, queryInput(c, InvoiceExportQuery));
        return new Response(file.body, { status: 200, headers: file.headers });
      },
      Object.keys(InvoiceExportFields.shape),
    ),
  );
  app.get('/api/expenses/export', (c) =>
    serviceRoute(
      c,
      deps,
      async (ctx, auth) => {
        const file = await exportExpenses(ctx, auth.user.id, queryInput(c, ExpenseExportQuery));
        return new Response(file.body, { status: 200, headers: file.headers });
      },
      Object.keys(ExpenseExportFields.shape),
    ),
  );
}
