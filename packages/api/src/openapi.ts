import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ERROR_LABELS } from './failure';
import { collectRoutes } from './rest/routes';
import { appRouter } from './root';
import { ImportReport } from './schemas/import-report';

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

/** One tag per domain, in the order the docs page lists them. */
/** Any one scheme authenticates; session-only operations (meta.sessionOnly) refuse API keys. */
const SESSION_SECURITY: Record<string, string[]>[] = [{ bearerAuth: [] }, { cookieAuth: [] }];
const SECURITY: Record<string, string[]>[] = [...SESSION_SECURITY, { apiKeyAuth: [] }];

const TAGS = [
  { name: 'auth', description: 'Registration, email verification, login and logout' },
  { name: 'profiles', description: 'Taxpayer profiles (one RFC each) and their validation flags' },
  { name: 'cfdi', description: 'Import CFDI XML (single documents, many files, ZIPs)' },
  { name: 'invoices', description: 'Income CFDI with validation results and payment status' },
  { name: 'expenses', description: 'Expenses from received CFDI and manual entry' },
  { name: 'periods', description: 'Accounting periods that manual expenses belong to' },
  { name: 'sat', description: 'SAT catalogs: products and services, fiscal regimes' },
  { name: 'subscription', description: 'Plans, the current subscription, checkout and the customer portal' },
  { name: 'api-keys', description: 'API keys for scripts and servers (BASIC and PRO)' },
  { name: 'webhooks', description: 'Calls the payment provider makes to Folio' },
];

/**
 * What the procedures' meta cannot say: a second success status (idempotent creates) and request
 * headers the REST layer reads.
 */
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  description:
    'Makes a retry safe (up to 255 printable ASCII characters, kept 24 hours per user): the same key ' +
    'with the same body answers exactly the first answer, with `Idempotent-Replayed: true`, and ' +
    'changes nothing; the same key with a different body is a 409 `idempotency_key_reused`.',
};

const OPERATION_EXTRAS: Record<
  string,
  { alsoOk?: string; headers?: { name: string; description: string }[] }
> = {
  'periods.open': { alsoOk: 'The period of that month already existed' },
  'expenses.createManual': { headers: [IDEMPOTENCY_KEY] },
  'subscription.createCheckout': { headers: [IDEMPOTENCY_KEY] },
};

const ErrorBody = z
  .object({
    error: z.string().meta({ description: "The status's label from the contract (e.g. `Bad Request`)" }),
    message: z.string().meta({ description: 'What went wrong, for a person' }),
    code: z.string().meta({
      description:
        'A stable snake_case identifier for programs: `validation_failed`, `unknown_parameter`, ' +
        '`rfc_invalid`, `quota_exceeded`, `not_found`, `idempotency_key_reused`…',
    }),
    fields: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'With `validation_failed`: each invalid input field (dotted path) and why' }),
  })
  .meta({
    id: 'ErrorBody',
    example: {
      error: 'Bad Request',
      message: 'limit: Too big: expected number to be <=100',
      code: 'validation_failed',
      fields: [{ path: 'limit', message: 'Too big: expected number to be <=100' }],
    },
  });

const jsonError = (status: number) => ({
  description: ERROR_LABELS[status] ?? 'Error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, jsonError(c)]));

/** Routes served outside the procedures (files in, files out), documented by hand. */
const FILE_ROUTES: ZodOpenApiPathsObject = {
  '/profiles/{profileId}/cfdi': {
    post: {
      operationId: 'cfdi-upload',
      tags: ['cfdi'],
      summary:
        'Import CFDI XML: one document as application/xml, or many .xml/.zip files as multipart `files`',
      description:
        'Each file is stored in its own transaction; the answer reports every file. Limits: 5 MB per XML, ' +
        '50 MB and 5,000 entries per ZIP (413). 201 when anything was imported, 200 otherwise. A single ' +
        'application/xml document that is refused answers 400 (429 past the monthly quota).',
      security: SECURITY,
      requestParams: { path: z.object({ profileId: z.string() }) },
      requestBody: {
        content: {
          'application/xml': { schema: z.string().meta({ description: 'one CFDI 4.0 or 3.3 document' }) },
          'multipart/form-data': {
            schema: z.object({ files: z.array(z.string().meta({ format: 'binary' })) }),
          },
        },
      },
      responses: {
        201: { description: 'Imported', content: { 'application/json': { schema: ImportAnswer } } },
        200: {
          description: 'Nothing new (duplicates or refusals only)',
          content: { 'application/json': { schema: ImportAnswer } },
        },
        ...errors(400, 401, 403, 404, 413, 415, 429, 500),
      },
    },
  },
  '/invoices/{id}/xml': {
    get: {
      operationId: 'invoices-xml',
      tags: ['invoices'],
      summary: 'The original XML of an imported CFDI',
      security: SECURITY,
      requestParams: { path: z.object({ id: z.string() }) },
      responses: {
        200: {
          description: 'The document as uploaded',
          content: { 'application/xml': { schema: z.string() } },
        },
        ...errors(401, 403, 404, 500),
      },
    },
  },
  '/webhooks/stripe': {
    post: {
      operationId: 'webhooks-stripe',
      tags: ['webhooks'],
      summary: 'Stripe webhook: subscription changes reported by the payment provider',
      description:
        'The raw body is verified against the `Stripe-Signature` header. Events are applied once: a ' +
        'repeated event id answers 200 with `outcome: "duplicate"`, an event type Folio does not use ' +
        '`"ignored"`. A handler failure answers 500 so the provider retries.',
      security: [],
      requestParams: { header: z.object({ 'stripe-signature': z.string() }) },
      requestBody: {
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
        ...errors(400, 500),
      },
    },
  },
};

/**
 * OpenAPI 3.1 for /api, generated from the procedures' meta and corrected where the generator
 * guesses wrong: real success codes, the one `{error, message}` error body, both auth schemes.
 */
export function buildOpenApiDocument(opts: { version: string; serverUrl?: string }): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Folio API',
    description:
      'Invoices, expenses, taxpayer profiles, SAT catalogs and subscriptions. Authenticate with ' +
      '`Authorization: Bearer <accessToken>` or the `access_token` cookie set by login; scripts and ' +
      'servers use an API key (`Authorization: Bearer folio_…`, see POST /api-keys).',
    version: opts.version,
    baseUrl: opts.serverUrl ?? '/api',
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      cookieAuth: { type: 'apiKey', in: 'cookie', name: 'access_token' },
      apiKeyAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'folio_…',
        description:
          'An API key from POST /api/api-keys (BASIC or PRO), sent as `Authorization: Bearer folio_…`. ' +
          'A `read` key may call GET routes only; operations marked session-only refuse keys (403).',
      },
    },
    defs: { ErrorBody },
    paths: FILE_ROUTES,
  });
  doc.tags = TAGS;
  for (const route of collectRoutes(appRouter)) {
    const op = doc.paths?.[route.path]?.[route.method.toLowerCase() as 'get'] as
      | { responses: Record<string, unknown>; security?: unknown }
      | undefined;
    if (!op) continue;
    const success = route.rest.successStatus ?? 200;
    if (success !== 200) {
      op.responses[success] = op.responses['200'];
      delete op.responses['200'];
    }
    const ok = op.responses[success] as { description?: string } | undefined;
    if (ok) ok.description = success === 201 ? 'Created' : 'OK';
    const extras = OPERATION_EXTRAS[route.procedure];
    if (extras?.alsoOk && ok) op.responses['200'] = { ...ok, description: extras.alsoOk };
    for (const code of Object.keys(op.responses)) if (Number(code) >= 400) delete op.responses[code];
    for (const status of documentedErrors(route)) op.responses[status] = jsonError(status);
    if (extras?.headers) {
      const withParams = op as { parameters?: unknown[] };
      withParams.parameters ??= [];
      const params = withParams.parameters;
      for (const h of extras.headers) {
        params.push({
          in: 'header',
          name: h.name,
          description: h.description,
          schema: { type: 'string', maxLength: 255 },
        });
      }
    }
    // A request body example comes from the input schema's meta (the generator copies the schema).
    const example = (z.globalRegistry.get(route.input as z.ZodType) as { example?: unknown } | undefined)
      ?.example;
    const body = (op as { requestBody?: { content?: Record<string, { example?: unknown }> } }).requestBody
      ?.content?.['application/json'];
    if (example !== undefined && body) body.example = example;
    // Any one scheme authenticates a protected route; session-only routes refuse API keys.
    if (route.protect) op.security = route.sessionOnly ? SESSION_SECURITY : SECURITY;
  }
  for (const key of Object.keys(doc.components?.schemas ?? {})) {
    if (key.startsWith('error.')) delete doc.components!.schemas![key];
  }
  return doc;
}

function documentedErrors(route: ReturnType<typeof collectRoutes>[number]): number[] {
  const meta = appRouter._def.procedures[route.procedure as keyof typeof appRouter._def.procedures] as any;
  const declared = meta?._def?.meta?.openapi?.errorResponses;
  const list: number[] = Array.isArray(declared)
    ? declared
    : declared
      ? Object.keys(declared).map(Number)
      : [];
  return list.length ? list : [400, 401, 500];
}
