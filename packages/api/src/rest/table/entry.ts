import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from 'zod-openapi';
import type { ErrorStyle } from '../../failure';
import type { ProcedureName } from '../procedure-name';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How the request pipeline serves a route and the document describes it, beyond method and path. */
export interface RestOptions extends ErrorStyle {
  /** 202: the work was accepted and runs in the background (a SAT sync job). */
  successStatus?: 200 | 201 | 202;
  /**
   * Refuse a body that is not `application/json` (415): an HTML form or a no-CORS fetch can send
   * text/plain cross-site without a preflight, which made login CSRF possible.
   */
  jsonOnly?: boolean;
  /** A second success answer, 200 beside the 201, and when it comes (idempotent creates). */
  alsoOk?: string;
  /** The route honours `Idempotency-Key`: a replay is the first answer plus `Idempotent-Replayed`. */
  idempotencyKey?: true;
  /**
   * The route takes a monthly plan quota (X-Quota-* headers). A procedure declares it in its own meta
   * (tRPC refuses a cross-site cookie call that spends); the table reads it from there.
   */
  quota?: true;
  /** The success answer sets (or clears) the access_token cookie. */
  setsCookie?: true;
}

/** Serves files in or out, or carries raw bytes; apps/api supplies one implementation per name. */
export const FILE_HANDLERS = [
  'cfdiUpload',
  'cfdiUploadXml',
  'satMetadataUpload',
  'efirmaUpload',
  'invoiceXml',
  'invoicePdf',
  'invoicesExport',
  'expensesExport',
  'monthlyReportFile',
  'annualReportFile',
  'diotReportFile',
  'stripeWebhook',
] as const;
export type FileHandlerName = (typeof FILE_HANDLERS)[number];

interface BaseEntry {
  method: HttpMethod;
  /** OpenAPI-style path relative to /api, e.g. `/profiles/{profileId}`. */
  path: string;
  /** Error statuses the route answers, each documented with the one error body. */
  errors: number[];
  /** A public route: no access token needed (default: protected). */
  protect?: false;
}

/** A route that runs a procedure of the app router: JSON in (query or body), JSON out. */
export interface ProcedureEntry<N extends string = ProcedureName> extends BaseEntry {
  procedure: N;
  /** The quota is the procedure's own `meta.quota` (tRPC reads it too), never declared here. */
  rest?: Omit<RestOptions, 'quota'>;
  /** What the document says; the input and output come from the procedure's schemas. */
  docs: { operationId?: string; tags: string[]; summary: string; description: string };
  /**
   * The same answer as a file when the query asks `format=…`: the formats, and who writes the file.
   * `json`: the handler also writes the JSON answer (no format, or `format=json`), the procedure's
   * own, checked against the same schema (for an answer made as text off the event loop: reports).
   */
  files?: {
    handler: FileHandlerName;
    formats: Record<string, { type: string; description: string }>;
    json?: true;
  };
}

/** A route that apps/api serves with a file handler (uploads, downloads, the provider's webhook). */
export interface FileEntry extends BaseEntry {
  handler: FileHandlerName;
  rest?: RestOptions;
  /** The operation with its success answer; openapi.ts adds security, errors and headers. */
  docs: Omit<ZodOpenApiOperationObject, 'responses'> & {
    responses: Record<number, ZodOpenApiResponseObject>;
  };
  /** The body is files, read by the handler within its own limits (not the 1 MB JSON limit). */
  upload?: true;
  /** Refuses API keys before the handler runs (what a procedure's `meta.sessionOnly` says). */
  sessionOnly?: true;
  /** Served, but left out of the public document: only the payment provider calls it. */
  internal?: true;
}

export type RouteEntry<N extends string = ProcedureName> = ProcedureEntry<N> | FileEntry;

export const isProcedureEntry = <N extends string>(e: RouteEntry<N>): e is ProcedureEntry<N> =>
  'procedure' in e;
