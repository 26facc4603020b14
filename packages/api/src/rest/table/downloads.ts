import { z } from 'zod';
import { ExpenseExportFields, InvoiceExportFields } from '../../schemas/export';
import type { FileEntry, FileHandlerName } from './entry';

/** GET /invoices/export and /expenses/export: the listing's filters, the whole filtered set as one file. */
function exportRoute(
  listing: 'invoices' | 'expenses',
  handler: FileHandlerName,
  query: z.ZodObject,
  summary: string,
): FileEntry {
  const file = z.string().meta({ format: 'binary' });
  return {
    method: 'GET',
    path: `/${listing}/export`,
    handler,
    docs: {
      operationId: `${listing}-export`,
      tags: [listing],
      summary,
      description:
        `The ${listing} listing's filters select the rows (all of them, newest first; no pages), one row ` +
        'per document with Spanish headers. `format=xlsx` (default; needs `exportExcel`: BASIC or PRO, ' +
        'else 403) has numeric and date cells, a frozen header and filters; `format=csv` (every plan) ' +
        'is UTF-8 with a BOM and RFC 4180 quoting. An attachment named by RFC and period, e.g. ' +
        '`facturas-XAXX010101000-2025-03.xlsx`. More than 100,000 matching rows → 400: narrow the filters.',
      requestParams: { query },
      responses: {
        200: {
          description: 'The file, streamed as it is written',
          headers: z.object({
            'Content-Disposition': z.string().meta({
              example: 'attachment; filename="facturas-XAXX010101000-2025-03.xlsx"',
            }),
          }),
          content: {
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: file },
            'text/csv': { schema: file },
          },
        },
      },
    },
    errors: [400, 401, 403, 404, 500],
  };
}

/** Files out: a CFDI's XML and PDF, the listings as spreadsheets. */
export const downloadRoutes: FileEntry[] = [
  {
    method: 'GET',
    path: '/invoices/{id}/xml',
    handler: 'invoiceXml',
    docs: {
      operationId: 'invoices-xml',
      tags: ['invoices'],
      summary: 'The original XML of an imported CFDI',
      description: 'The document exactly as it was uploaded, for archiving or re-validation.',
      requestParams: { path: z.object({ id: z.string().meta({ format: 'uuid' }) }) },
      responses: {
        200: {
          description: 'The document as uploaded',
          content: { 'application/xml': { schema: z.string() } },
        },
      },
    },
    errors: [401, 403, 404, 500],
  },
  {
    method: 'GET',
    path: '/invoices/{id}/pdf',
    handler: 'invoicePdf',
    docs: {
      operationId: 'invoices-pdf',
      tags: ['invoices'],
      summary: 'The printed representation (PDF) of an imported CFDI',
      description:
        'Any CFDI you own, income or expense (the `id` the listings give), drawn from its original XML: ' +
        'issuer and recipient, folio fiscal, serie/folio, date and place, uso CFDI, método and forma de ' +
        'pago, moneda and tipo de cambio, every concepto with its taxes, totals, the total in words, ' +
        'the payments of a payment complement, the stamp data and the SAT verification QR code. Needs ' +
        '`exportPDF` (BASIC or PRO; else 403). An attachment named by issuer RFC, serie-folio and UUID. ' +
        'Drawn in a worker thread with limits: 503 `pdf_busy` or `pdf_timeout` with Retry-After when ' +
        'every worker is busy or the document runs out of time, 422 `pdf_unprintable` for a document ' +
        'that cannot be printed (it needs more memory than a worker has).',
      requestParams: { path: z.object({ id: z.string().meta({ format: 'uuid' }) }) },
      responses: {
        200: {
          description: 'The PDF',
          headers: z.object({
            'Content-Disposition': z.string().meta({
              example: 'attachment; filename="XAXX010101000-A-1-6D7434A6-E3F2-47AD-9E4C-08849946AFA0.pdf"',
            }),
          }),
          content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } },
        },
      },
    },
    errors: [401, 403, 404, 422, 500, 503],
  },
  exportRoute(
    'invoices',
    'invoicesExport',
    InvoiceExportFields,
    'Income CFDI of your profiles as a spreadsheet',
  ),
  exportRoute(
    'expenses',
    'expensesExport',
    ExpenseExportFields,
    'Expenses (received CFDI and manual) as a spreadsheet',
  ),
];
