import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ERROR_LABELS } from './rest/errors';
import { collectRoutes } from './rest/routes';
import { appRouter } from './root';
import { ImportReport } from './routers/cfdi';

const ImportAnswer = z.object({ message: z.string(), data: ImportReport });

const ErrorBody = z.object({ error: z.string(), message: z.string() }).meta({
  id: 'ErrorBody',
  example: { error: 'Bad Request', message: 'limit: Too big: expected number to be <=100' },
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
      tags: ['cfdi'],
      summary:
        'Import CFDI XML: one document as application/xml, or many .xml/.zip files as multipart `files`',
      description:
        'Each file is stored in its own transaction; the answer reports every file. Limits: 5 MB per XML, ' +
        '50 MB and 5,000 entries per ZIP (413). 201 when anything was imported, 200 otherwise. A single ' +
        'application/xml document that is refused answers 400 (429 past the monthly quota).',
      security: [{ bearerAuth: [] }, { cookieAuth: [] }],
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
      tags: ['invoices'],
      summary: 'The original XML of an imported CFDI',
      security: [{ bearerAuth: [] }, { cookieAuth: [] }],
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
      '`Authorization: Bearer <accessToken>` or the `access_token` cookie set by login.',
    version: opts.version,
    baseUrl: opts.serverUrl ?? '/api',
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      cookieAuth: { type: 'apiKey', in: 'cookie', name: 'access_token' },
    },
    defs: { ErrorBody },
    paths: FILE_ROUTES,
  });
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
    for (const code of Object.keys(op.responses)) if (Number(code) >= 400) delete op.responses[code];
    for (const status of documentedErrors(route)) op.responses[status] = jsonError(status);
    // Either scheme authenticates a protected route.
    if (route.protect) op.security = [{ bearerAuth: [] }, { cookieAuth: [] }];
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
