import { MAX_CFDI_BYTES } from '@folio/cfdi';
import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from 'zod-openapi';
import { ExpenseExportFields, InvoiceExportFields } from '../schemas/export';
import { ImportReport } from '../schemas/import-report';
import { MetadataReport } from '../schemas/sat-metadata';
import type { RestMeta } from '../trpc';
import type { HttpMethod } from './routes';

/**
 * A route apps/api serves outside the procedures (files in, files out, the provider's webhook). This
 * list is the one place they are named: the OpenAPI document describes them from it and the
 * authorization matrix checks each of them.
 */
export interface FileRoute {
  method: HttpMethod;
  /** OpenAPI-style path relative to /api. */
  path: string;
  /** Whether the route needs an access token. */
  protect: boolean;
  rest?: Pick<RestMeta, 'successStatus' | 'alsoOk' | 'quota'>;
  /** The operation with its success answer; openapi.ts adds security, errors and headers. */
  operation: Omit<ZodOpenApiOperationObject, 'responses'> & {
    responses: Record<number, ZodOpenApiResponseObject>;
  };
  /** Error statuses the route answers (documented with the one error body). */
  errors: number[];
  /** Served, but left out of the public document: only the payment provider calls it. */
  internal?: true;
}

const ImportAnswer = z.object({ message: z.string(), data: ImportReport }).meta({
  example: {
    message: '1 imported, 0 duplicate, 1 rejected',
    data: {
      imported: 1,
      duplicates: 0,
      rejected: 1,
      files: [
        {
          name: 'enero/6D7434A6.xml',
          status: 'imported',
          kind: 'invoice',
          tipo: 'PPD',
          uuid: '6D7434A6-E3F2-47AD-9E4C-08849946AFA0',
          id: 'a935b1cb-4fb6-44a9-9568-fe63acf05ff1',
        },
        {
          name: 'enero/borrador.xml',
          status: 'rejected',
          error: 'CFDI sin timbre (no TimbreFiscalDigital UUID)',
        },
      ],
    },
  },
});

const importAnswers = {
  201: { description: 'Imported', content: { 'application/json': { schema: ImportAnswer } } },
};
/** The per-document limit, as the descriptions say it. */
const XML_MB = `${MAX_CFDI_BYTES / (1024 * 1024)} MB`;

const importMeta = {
  successStatus: 201,
  alsoOk: 'Nothing new (duplicates or refusals only)',
  quota: true,
} as const;

const ProfilePath = z.object({ profileId: z.string().meta({ description: 'The profile to import into' }) });

/** GET /invoices/export and /expenses/export: the listing's filters, the whole filtered set as one file. */
function exportRoute(listing: 'invoices' | 'expenses', query: z.ZodObject, summary: string): FileRoute {
  const file = z.string().meta({ format: 'binary' });
  return {
    method: 'GET',
    path: `/${listing}/export`,
    protect: true,
    operation: {
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

export const FILE_ROUTES: readonly FileRoute[] = [
  {
    method: 'POST',
    path: '/profiles/{profileId}/cfdi',
    protect: true,
    rest: importMeta,
    operation: {
      operationId: 'cfdi-upload',
      tags: ['cfdi'],
      summary: 'Import CFDI files: many .xml/.zip files as multipart `files`',
      description:
        'Each file is stored in its own transaction; the answer reports every file. Limits: ' +
        `${XML_MB} per XML, 50 MB and 5,000 entries per ZIP (413). 201 when anything was imported, ` +
        '200 otherwise. ' +
        'This route also takes one document sent as `application/xml`, as POST …/cfdi/xml does.',
      requestParams: { path: ProfilePath },
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({
              files: z.array(z.string().meta({ format: 'binary' })).meta({
                description: 'CFDI .xml documents and .zip archives of them',
              }),
            }),
          },
        },
      },
      responses: importAnswers,
    },
    errors: [400, 401, 403, 404, 413, 415, 429, 500],
  },
  {
    method: 'POST',
    path: '/profiles/{profileId}/cfdi/xml',
    protect: true,
    rest: importMeta,
    operation: {
      operationId: 'cfdi-upload-xml',
      tags: ['cfdi'],
      summary: 'Import one CFDI XML document sent as the raw body',
      description:
        'The body is the document itself, byte for byte (not JSON), whatever its Content-Type; at ' +
        `most ${XML_MB} (413).` +
        ' 201 when imported, 200 when the profile already has it; a refused document ' +
        'answers 400 with the reason (429 past the monthly quota).',
      requestParams: { path: ProfilePath },
      requestBody: {
        required: true,
        content: {
          'application/xml': {
            schema: z.string().meta({ format: 'binary', description: 'one CFDI 4.0 or 3.3 document' }),
          },
        },
      },
      responses: importAnswers,
    },
    errors: [400, 401, 403, 404, 413, 429, 500],
  },
  {
    method: 'POST',
    path: '/profiles/{profileId}/sat-metadata',
    protect: true,
    operation: {
      operationId: 'sat-metadata-upload',
      tags: ['profiles'],
      summary:
        "Read SAT's metadata files: each listed CFDI's status (vigente/cancelado), and the XML Folio lacks",
      description:
        "SAT's metadata files as the portal and the mass-download service hand them out: `.txt` (`~`-separated, " +
        'CRLF records, a header naming the columns; only Uuid, Estatus and FechaCancelacion are required, ' +
        '`PacCertifico` is read as `RfcPac`) or `.zip` archives of them (the `_tercero.txt` file is left out), ' +
        'as multipart `files`, or one file as a `text/plain` body. Each line answers: `updated` (a stored ' +
        'CFDI took the status, with `estatus_fuente: "metadata"`), `unchanged`, `missing_xml` (no CFDI of ' +
        'the profile has the UUID: listed by GET …/sat-metadata/missing, and given its status when ' +
        "imported) or `invalid`. SAT's cancelado is final: a later file saying 1 does not revert it. The " +
        'same limits as a CFDI upload (120 MB body, 50 MB and 5,000 entries per ZIP, 100 MB unzipped: ' +
        '413); a frozen profile answers 403. Stores no CFDI, so it takes none of the monthly CFDI quota.',
      requestParams: { path: ProfilePath },
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({
              files: z.array(z.string().meta({ format: 'binary' })).meta({
                description: 'SAT metadata .txt files and .zip archives of them',
              }),
            }),
          },
          'text/plain': { schema: z.string().meta({ description: 'one metadata file' }) },
        },
      },
      responses: {
        200: {
          description: 'What each line did',
          content: {
            'application/json': {
              schema: z.object({ message: z.string(), data: MetadataReport }).meta({
                example: {
                  message: '1 updated, 0 unchanged, 1 missing XML, 0 invalid',
                  data: {
                    updated: 1,
                    unchanged: 0,
                    missing_xml: 1,
                    invalid: 0,
                    files: [
                      {
                        name: 'metadata.txt',
                        lines: [
                          {
                            line: 2,
                            uuid: '6D7434A6-E3F2-47AD-9E4C-08849946AFA0',
                            status: 'updated',
                            estatus_sat: 'cancelado',
                          },
                          {
                            line: 3,
                            uuid: 'A1B2C3D4-E3F2-47AD-9E4C-08849946AFA1',
                            status: 'missing_xml',
                            estatus_sat: 'vigente',
                          },
                        ],
                      },
                    ],
                  },
                },
              }),
            },
          },
        },
      },
    },
    errors: [400, 401, 403, 404, 413, 415, 500],
  },
  {
    method: 'GET',
    path: '/invoices/{id}/xml',
    protect: true,
    operation: {
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
    protect: true,
    operation: {
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
  exportRoute('invoices', InvoiceExportFields, 'Income CFDI of your profiles as a spreadsheet'),
  exportRoute('expenses', ExpenseExportFields, 'Expenses (received CFDI and manual) as a spreadsheet'),
  {
    method: 'POST',
    path: '/webhooks/stripe',
    protect: false,
    internal: true, // a generated client must not get a webhooksStripe() method
    operation: {
      operationId: 'webhooks-stripe',
      tags: ['webhooks'],
      summary: 'Stripe webhook: subscription changes reported by the payment provider',
      description:
        'The raw body is verified against the `Stripe-Signature` header. Events are applied once: a ' +
        'repeated event id answers 200 with `outcome: "duplicate"`, an event type Folio does not use ' +
        '`"ignored"`. A handler failure answers 500 so the provider retries.',
      requestParams: { header: z.object({ 'stripe-signature': z.string() }) },
      requestBody: {
        required: true,
        content: { 'application/json': { schema: z.object({}).catchall(z.unknown()) } },
      },
      responses: {
        200: {
          description: 'Processed, duplicate or ignored',
          content: {
            'application/json': {
              schema: z.object({
                received: z.literal(true),
                outcome: z.enum(['processed', 'duplicate', 'ignored']),
              }),
            },
          },
        },
      },
    },
    errors: [400, 500],
  },
];
