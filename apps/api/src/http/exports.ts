import {
  type Context as ApiContext,
  ExpenseExportFields,
  ExpenseExportQuery,
  type ExportFile,
  exportExpenses,
  exportInvoices,
  InvoiceExportFields,
  InvoiceExportQuery,
  invoicePdf,
} from '@folio/api';
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { queryInput, serviceRoute } from './service-route';
import type { AppDeps, AppEnv } from './types';

/**
 * GET /api/invoices/export and /api/expenses/export: the listing as an xlsx or csv attachment, its
 * bytes sent as they are written; GET /api/invoices/{id}/pdf: one CFDI's printed representation.
 * Mounted before the REST layer, whose GET /invoices/{id} would otherwise take `export` for an id.
 */
export function mountExports(app: Hono<AppEnv>, deps: AppDeps): void {
  const routes: {
    path: string;
    fields: z.ZodObject;
    file: (c: Context<AppEnv>, ctx: ApiContext, userId: string) => Promise<ExportFile>;
  }[] = [
    {
      path: '/api/invoices/export',
      fields: InvoiceExportFields,
      file: (c, ctx, userId) => exportInvoices(ctx, userId, queryInput(c, InvoiceExportQuery)),
    },
    {
      path: '/api/expenses/export',
      fields: ExpenseExportFields,
      file: (c, ctx, userId) => exportExpenses(ctx, userId, queryInput(c, ExpenseExportQuery)),
    },
  ];
  for (const route of routes) {
    const known = Object.keys(route.fields.shape);
    app.get(route.path, (c) =>
      serviceRoute(
        c,
        deps,
        async (ctx, auth) => {
          const file = await route.file(c, ctx, auth.user.id);
          return new Response(file.body, { status: 200, headers: file.headers });
        },
        known,
      ),
    );
  }
  app.get('/api/invoices/:id/pdf', (c) =>
    serviceRoute(c, deps, async (ctx, auth) => {
      const file = await invoicePdf(ctx, auth.user.id, c.req.param('id'));
      return new Response(new Uint8Array(file.body), { status: 200, headers: file.headers });
    }),
  );
}
