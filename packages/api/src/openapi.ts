import { generateOpenApiDocument, type OpenAPIObject, type OpenApiRouter } from 'trpc-to-openapi';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ERROR_CODES, ERROR_DOCS_PATH } from './error-codes';
import { ERROR_LABELS } from './failure';
import { webhooksSection } from './openapi-webhooks';
import { procedureOf, type RestRoute, restRoutes } from './rest/routes';
import { isProcedureEntry, type ProcedureEntry, type RestOptions } from './rest/table/entry';
import { appRouter } from './root';

/** Any one scheme authenticates; session-only operations (meta.sessionOnly) refuse API keys. */
const SESSION_SECURITY: Record<string, string[]>[] = [{ bearerAuth: [] }, { cookieAuth: [] }];
const SECURITY: Record<string, string[]>[] = [...SESSION_SECURITY, { apiKeyAuth: [] }];

/** One tag per domain, in the order the docs page lists them. */
const TAGS = [
  { name: 'auth', description: 'Registration, email verification, login and logout' },
  { name: 'profiles', description: 'Taxpayer profiles (one RFC each) and their validation flags' },
  { name: 'cfdi', description: 'Import CFDI XML (single documents, many files, ZIPs)' },
  { name: 'invoices', description: 'Income CFDI with validation results and payment status' },
  { name: 'expenses', description: 'Expenses from received CFDI and manual entry' },
  { name: 'periods', description: 'Accounting periods that manual expenses belong to' },
  { name: 'reports', description: 'Tax reports: the month, the year and the DIOT, at the plan’s level' },
  { name: 'sat', description: 'SAT catalogs: products and services, fiscal regimes' },
  {
    name: 'sat-sync',
    description: "A profile's stored e.firma, for downloading its CFDI from SAT (BASIC and PRO)",
  },
  { name: 'subscription', description: 'Plans, the current subscription, checkout and the customer portal' },
  { name: 'api-keys', description: 'API keys for scripts and servers (BASIC and PRO)' },
  { name: 'support', description: 'Support requests: email on BASIC, priority on PRO' },
  {
    name: 'webhooks',
    description: 'Signed events Folio sends to your endpoints, and the endpoints (BASIC and PRO)',
  },
];

const ErrorBody = z
  .object({
    error: z.string().meta({ description: "The status's label from the contract (e.g. `Bad Request`)" }),
    message: z.string().meta({ description: 'What went wrong, for a person' }),
    code: z.enum(ERROR_CODES).meta({
      description:
        'A stable snake_case identifier for programs to switch on. Each is explained, with how to fix ' +
        `it, in ${ERROR_DOCS_PATH}; the answer's \`Link: <…#code>; rel="help"\` header points at its entry.`,
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

/** Response headers, described once and referenced from every answer that carries them. */
const HEADERS = {
  'X-Request-Id': {
    description: 'The id the server logged this request under; quote it when reporting a problem',
    schema: { type: 'string' },
  },
  Link: {
    description: `The entry of the error's \`code\` in ${ERROR_DOCS_PATH}: \`<${ERROR_DOCS_PATH}#code>; rel="help"\``,
    schema: { type: 'string', examples: [`<${ERROR_DOCS_PATH}#plan_required>; rel="help"`] },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying (past a monthly quota: until it resets)',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-Quota-Limit': {
    description: "The plan's monthly limit for this kind of request, or `unlimited`",
    schema: { type: 'string', examples: ['100', 'unlimited'] },
  },
  'X-Quota-Remaining': {
    description: 'What is left of the monthly limit after this request (absent when unlimited)',
    schema: { type: 'integer', minimum: 0 },
  },
  'Set-Cookie': {
    description: 'The `access_token` cookie (HttpOnly, SameSite=Lax); logout clears it',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;
type HeaderName = keyof typeof HEADERS;

/** The request header of the routes whose table entry says `rest.idempotencyKey`. */
const IDEMPOTENCY_KEY = {
  in: 'header',
  name: 'Idempotency-Key',
  description:
    'Makes a retry safe (up to 255 printable ASCII characters, kept 24 hours per user): the same key ' +
    'with the same body answers exactly the first answer, with `Idempotent-Replayed: true`, and ' +
    'changes nothing; the same key with a different body is a 409 `idempotency_key_reused`.',
  schema: { type: 'string', maxLength: 255 },
};

const LICENSE = { name: 'MIT', identifier: 'MIT' };

const jsonError = (status: number) => ({
  description: ERROR_LABELS[status] ?? 'Error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

type Extras = Pick<RestOptions, 'alsoOk' | 'idempotencyKey' | 'quota' | 'setsCookie'>;
interface Operation {
  security?: Record<string, string[]>[];
  parameters?: object[];
  requestBody?: { content?: Record<string, { example?: unknown }> };
  responses: Record<string, { description?: string; headers?: object }>;
}

/**
 * Puts an operation's answers in order: its real success status (and the 200 of `alsoOk`), the one
 * error body for each error status it names, and on each answer the headers it carries.
 */
function answers(op: Operation, success: number, errorCodes: number[], extras: Extras): void {
  const ok = op.responses[success] ?? op.responses['200'];
  if (!ok) throw new Error(`no ${success} answer to document`);
  op.responses = { [success]: ok };
  if (extras.alsoOk) op.responses['200'] = { ...ok, description: extras.alsoOk };
  for (const status of errorCodes) op.responses[status] = jsonError(status);
  for (const [code, res] of Object.entries(op.responses)) {
    const status = Number(code);
    const names: HeaderName[] = ['X-Request-Id'];
    if (status >= 400) names.push('Link');
    if (status === 429 || status === 503) names.push('Retry-After');
    if (extras.quota && (status < 300 || status === 429)) names.push('X-Quota-Limit', 'X-Quota-Remaining');
    if (extras.setsCookie && status < 300) names.push('Set-Cookie');
    if (extras.idempotencyKey && status < 300) names.push('Idempotent-Replayed');
    op.responses[code] = {
      ...res,
      // The route's own headers (a download's Content-Disposition) stay; the common ones are added.
      headers: {
        ...res.headers,
        ...Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }])),
      },
    };
  }
  if (extras.idempotencyKey) op.parameters = [...(op.parameters ?? []), IDEMPOTENCY_KEY];
}

type DocumentedRoute = RestRoute & { procedure: string; entry: ProcedureEntry };

/**
 * The procedures as trpc-to-openapi reads them, each with the `meta.openapi` its table entry makes
 * (in the router's order, which is the document's). The generator does the schema work (query
 * parameters of a GET, the JSON body minus path parameters, the output as the answer); what it
 * says comes from the table.
 */
function documentedRouter(routes: DocumentedRoute[]): OpenApiRouter {
  const procedures: Record<string, unknown> = {};
  for (const name of Object.keys(appRouter._def.procedures)) {
    const route = routes.find((r) => r.procedure === name);
    if (!route) continue;
    const { entry } = route;
    const def = procedureOf(appRouter, name)._def;
    const openapi = {
      method: entry.method,
      path: entry.path,
      ...entry.docs,
      errorResponses: entry.errors,
      ...(entry.protect === false ? { protect: false } : {}),
    };
    procedures[name] = { _def: { ...def, meta: { openapi } } };
  }
  return { _def: { procedures } } as unknown as OpenApiRouter;
}

/**
 * OpenAPI 3.1 for /api, generated from the route table (the procedures' schemas for their routes,
 * the file routes' own operations), and corrected where the generator guesses wrong: real success
 * codes, the one `{error, message}` error body, response headers, both auth schemes. `serverUrl` is
 * the absolute URL of /api (APP_URL + `/api`).
 */
export function buildOpenApiDocument(opts: { version: string; serverUrl: string }): OpenAPIObject {
  // The payment provider's webhook is served but not public.
  const routes = restRoutes().filter((r) => isProcedureEntry(r.entry) || !r.entry.internal);
  const procedureRoutes = routes.filter((r): r is DocumentedRoute => isProcedureEntry(r.entry));
  const fileRoutes = routes.flatMap((r) => (isProcedureEntry(r.entry) ? [] : [r.entry]));
  const paths: ZodOpenApiPathsObject = {};
  for (const route of fileRoutes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: route.docs };
  }
  const doc = generateOpenApiDocument(documentedRouter(procedureRoutes), {
    title: 'Folio API',
    description:
      'Invoices, expenses, taxpayer profiles, SAT catalogs and subscriptions. Authenticate with ' +
      '`Authorization: Bearer <accessToken>` or the `access_token` cookie set by login; scripts and ' +
      'servers use an API key (`Authorization: Bearer folio_…`, see POST /api-keys).\n\n' +
      'From TypeScript, use the typed client `@folio/sdk` (packages/sdk in the repository: ' +
      '`createFolioClient({ baseUrl, apiKey })`, typed REST and tRPC calls, `FolioApiError.code`). ' +
      `Every error answers \`{error, message, code}\`; each \`code\` is explained in ${ERROR_DOCS_PATH}.`,
    version: opts.version,
    baseUrl: opts.serverUrl,
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
    paths,
  });
  doc.info.license = LICENSE;
  doc.tags = TAGS;
  const hooks = webhooksSection();
  doc.webhooks = hooks.webhooks;
  doc.components = {
    ...doc.components,
    schemas: { ...doc.components?.schemas, ...hooks.schemas },
    headers: HEADERS as never,
  };
  const operation = (method: string, path: string) => {
    const op = doc.paths?.[path]?.[method.toLowerCase() as 'get'] as Operation | undefined;
    if (!op) throw new Error(`${method} ${path} is missing from the generated document`);
    return op;
  };

  for (const route of procedureRoutes) {
    const op = operation(route.method, route.path);
    const success = route.rest.successStatus ?? 200;
    answers(op, success, route.entry.errors, route.rest);
    op.responses[success]!.description = success === 201 ? 'Created' : success === 202 ? 'Accepted' : 'OK';
    // A request body example comes from the input schema's meta (the generator copies the schema).
    const example = (z.globalRegistry.get(route.input as z.ZodType) as { example?: unknown } | undefined)
      ?.example;
    const body = op.requestBody?.content?.['application/json'];
    if (example !== undefined && body) body.example = example;
    // Any one scheme authenticates a protected route (session-only ones refuse API keys); a public
    // one says it needs none.
    op.security = !route.protect ? [] : route.sessionOnly ? SESSION_SECURITY : SECURITY;
    // The same answer as a download (format=xlsx), written by the entry's file handler.
    const ok = op.responses[success] as { content?: Record<string, object> };
    for (const { type, description } of Object.values(route.entry.files?.formats ?? {})) {
      ok.content = { ...ok.content, [type]: { schema: { type: 'string', format: 'binary', description } } };
    }
  }
  for (const route of fileRoutes) {
    const op = operation(route.method, route.path);
    answers(op, route.rest?.successStatus ?? 200, route.errors, route.rest ?? {});
    op.security = route.protect === false ? [] : route.sessionOnly ? SESSION_SECURITY : SECURITY;
  }
  for (const key of Object.keys(doc.components?.schemas ?? {})) {
    if (key.startsWith('error.')) delete doc.components!.schemas![key];
  }
  return doc;
}
