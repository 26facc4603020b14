import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { committedSnapshot, snapshotDocument, snapshotText } from '../scripts/openapi-snapshot';
import { restRoutes } from '../src/rest/routes';
import { Expense } from '../src/schemas/expense';
import { Invoice } from '../src/schemas/invoice';
import { Pagination } from '../src/schemas/pagination';
import { Period } from '../src/schemas/period';
import { Profile } from '../src/schemas/profile';
import { FiscalRegime, SatProduct } from '../src/schemas/sat';
import { AvailablePlan, PlanLimits, Subscription } from '../src/schemas/subscription';
import { User } from '../src/schemas/user';

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
};
const doc = snapshotDocument() as unknown as {
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { example?: unknown }>; securitySchemes: Record<string, unknown> };
};
const op = (method: string, path: string) => doc.paths[path]?.[method];
const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, o]) => ({ method, path, op: o })),
);

/** JSON pointers where two values differ (the first few), to say what an unreviewed change touched. */
function differences(a: unknown, b: unknown, at = '', out: string[] = []): string[] {
  if (out.length >= 15) return out;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    if (a !== b) out.push(at || '/');
    return out;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys)
    differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}/${k}`, out);
  return out;
}

describe('the committed OpenAPI snapshot (packages/api/openapi.snap.json)', () => {
  it('matches the generated document; run `pnpm openapi:update` and review the diff when it does not', () => {
    const committed = committedSnapshot();
    expect(committed, 'openapi.snap.json is missing: run `pnpm openapi:update`').not.toBeNull();
    const fresh = snapshotText();
    if (committed !== fresh) {
      const changed = differences(JSON.parse(committed as string), JSON.parse(fresh));
      expect.fail(
        `The REST surface changed and the snapshot was not updated (${changed.length ? changed.join(', ') : 'formatting'}). ` +
          'Run `pnpm openapi:update`, review the diff of openapi.snap.json and the SDK types, and commit both.',
      );
    }
  });
});

// docs/contract.md#routes, from the original contract: every operation with the success status it really answers and the error statuses it names.
const SPEC: [method: string, path: string, success: number, errors: number[]][] = [
  ['post', '/auth/register', 201, [400]],
  ['post', '/profiles', 201, [400, 401, 403, 422, 500]],
  ['put', '/profiles/{profileId}', 200, [400, 401, 403, 404, 422, 500]],
  ['get', '/invoices', 200, [400, 401, 500]],
  ['get', '/expenses', 200, [400, 401, 500]],
  ['post', '/accrued-expenses', 201, [400, 401, 403, 500]],
  ['get', '/sat/search', 200, [400, 401, 429, 500]],
  ['get', '/sat/{id}', 200, [400, 401, 404, 500]],
  ['get', '/sat/regimenes-fiscales', 200, [400, 401, 500]],
  ['get', '/subscription/plans', 200, [400, 401, 500]],
  ['get', '/subscription', 200, [401, 500]],
  ['post', '/subscription/create-checkout', 201, [400, 401, 409, 500]],
  ['post', '/subscription/create-portal-session', 201, [401, 403, 404, 500]],
];

// docs/contract.md#routes, ours: the operations the original contract leaves out.
const DESIGN: [method: string, path: string, success: number, errors: number[]][] = [
  ['post', '/auth/login', 200, [401]],
  ['post', '/auth/logout', 200, []],
  ['get', '/auth/me', 200, [401]],
  ['post', '/auth/verify-email', 200, [400]],
  ['get', '/auth/verify-email', 200, [400]],
  ['post', '/auth/resend-verification', 200, [401]],
  ['get', '/profiles', 200, [401]],
  ['get', '/profiles/{profileId}', 200, [401, 403, 404]],
  ['delete', '/profiles/{profileId}', 200, [401, 403, 404]],
  ['post', '/profiles/{profileId}/cfdi', 201, [400, 401, 403, 404, 413, 415, 429]],
  ['post', '/profiles/{profileId}/cfdi/xml', 201, [400, 401, 403, 404, 413, 429]],
  ['get', '/invoices/{id}', 200, [401, 403, 404]],
  ['get', '/invoices/{id}/xml', 200, [401, 403, 404]],
  ['post', '/invoices/{id}/payments', 201, [400, 401, 403, 404]],
  ['patch', '/accrued-expenses/{id}', 200, [400, 401, 403, 404]],
  ['get', '/periods', 200, [401]],
  ['post', '/periods', 201, [400, 401]],
];

describe('every operation of docs/contract.md is documented', () => {
  for (const [method, path, success, errors] of [...SPEC, ...DESIGN]) {
    it(`${method.toUpperCase()} /api${path}: ${success}, ${errors.join(', ') || 'no spec errors'}`, () => {
      const o = op(method, path);
      expect(o, `${method.toUpperCase()} ${path} is not in the document`).toBeDefined();
      const codes = Object.keys(o!.responses).map(Number);
      expect(codes).toContain(success);
      expect(codes.filter((c) => c >= 200 && c < 300 && c !== success && c !== 200)).toEqual([]);
      for (const status of errors) {
        expect(codes, `${status} missing`).toContain(status);
        expect(o!.responses[status]?.content?.['application/json']?.schema?.$ref).toBe(
          '#/components/schemas/ErrorBody',
        );
      }
    });
  }

  it('documents each route of the REST table, with the success status it answers', () => {
    for (const route of restRoutes().filter((r) => r.procedure)) {
      const o = op(route.method.toLowerCase(), route.path);
      expect(o, `${route.method} ${route.path} (${route.procedure})`).toBeDefined();
      expect(Object.keys(o!.responses)).toContain(String(route.rest.successStatus ?? 200));
    }
  });

  it('answers an existing period with 200, and says so', () => {
    expect(Object.keys(op('post', '/periods')!.responses)).toEqual(expect.arrayContaining(['200', '201']));
  });

  it('documents the Idempotency-Key header, and its 409, on every route that honours it', () => {
    for (const path of ['/accrued-expenses', '/subscription/create-checkout']) {
      const o = op('post', path)!;
      expect(o.parameters, path).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'Idempotency-Key' }),
      );
      expect(Object.keys(o.responses), path).toContain('409');
    }
  });
});

describe('the document as a whole', () => {
  it('gives every operation a unique operationId, a summary and a known tag', () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = doc.tags.map((t) => t.name);
    expect(tags).toEqual([
      'auth',
      'profiles',
      'cfdi',
      'invoices',
      'expenses',
      'periods',
      'reports',
      'sat',
      'sat-sync',
      'subscription',
      'api-keys',
      'support',
      'webhooks',
    ]);
    for (const { method, path, op: o } of operations) {
      expect(o.summary, `${method} ${path}`).toBeTruthy();
      expect(o.tags?.length, `${method} ${path}`).toBe(1);
      expect(tags).toContain(o.tags?.[0]);
    }
    expect(doc.tags.every((t) => t.description.length > 10)).toBe(true);
  });

  it('declares the security schemes: a session or an API key, except where only a session will do', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'apiKeyAuth',
      'bearerAuth',
      'cookieAuth',
    ]);
    const session = [{ bearerAuth: [] }, { cookieAuth: [] }];
    const sessionOnly = new Set([
      'post /api-keys',
      'get /api-keys',
      'delete /api-keys/{id}',
      'post /subscription/create-checkout',
      'post /subscription/create-portal-session',
      'delete /profiles/{profileId}',
      'post /auth/refresh',
      'post /auth/change-password',
      'put /profiles/{profileId}/efirma',
      'get /profiles/{profileId}/efirma',
      'delete /profiles/{profileId}/efirma',
      'post /profiles/{profileId}/sat-sync',
    ]);
    const open = new Set([
      'post /auth/register',
      'post /auth/login',
      'post /auth/logout',
      'post /auth/verify-email',
      'get /auth/verify-email',
      'post /auth/forgot-password',
      'post /auth/reset-password',
    ]);
    for (const { method, path, op: o } of operations) {
      const key = `${method} ${path}`;
      const expected = open.has(key) ? [] : sessionOnly.has(key) ? session : [...session, { apiKeyAuth: [] }];
      expect(o.security, key).toEqual(expected);
    }
  });

  it('names the absolute server URL it was built for (APP_URL + /api)', () => {
    expect((doc as unknown as { servers: { url: string }[] }).servers).toEqual([
      { url: 'http://localhost:3000/api' },
    ]);
  });

  it('says public operations need no credentials (security: [])', () => {
    for (const path of ['/auth/register', '/auth/login', '/auth/logout']) {
      expect(op('post', path)?.security, path).toEqual([]);
    }
  });

  it('gives every operation a description beside its summary', () => {
    for (const { method, path, op: o } of operations) {
      expect((o as { description?: string }).description?.length, `${method} ${path}`).toBeGreaterThan(20);
    }
  });

  it('describes the headers answers carry: request id always, Retry-After on 429, quota, cookie, replay', () => {
    const headers = (method: string, path: string, status: string) =>
      Object.keys((op(method, path)!.responses[status] as { headers?: object }).headers ?? {});
    for (const { method, path, op: o } of operations) {
      for (const status of Object.keys(o.responses)) {
        expect(headers(method, path, status), `${method} ${path} ${status}`).toContain('X-Request-Id');
        if (status === '429') expect(headers(method, path, status)).toContain('Retry-After');
      }
    }
    const quota = ['X-Quota-Limit', 'X-Quota-Remaining'];
    expect(headers('get', '/sat/search', '200')).toEqual(expect.arrayContaining(quota));
    expect(headers('get', '/sat/search', '429')).toEqual(expect.arrayContaining([...quota, 'Retry-After']));
    expect(headers('post', '/profiles/{profileId}/cfdi', '201')).toEqual(expect.arrayContaining(quota));
    expect(headers('post', '/accrued-expenses', '201')).toEqual(
      expect.arrayContaining([...quota, 'Idempotent-Replayed']),
    );
    expect(headers('post', '/auth/login', '200')).toContain('Set-Cookie');
    expect(headers('post', '/auth/logout', '200')).toContain('Set-Cookie');
    expect(headers('get', '/invoices', '200')).toEqual(['X-Request-Id']);
    const components = (doc.components as { headers?: Record<string, unknown> }).headers ?? {};
    for (const name of ['X-Request-Id', 'Retry-After', ...quota, 'Set-Cookie', 'Idempotent-Replayed'])
      expect(components[name], name).toMatchObject({
        description: expect.any(String),
        schema: expect.any(Object),
      });
  });

  it('gives ids, moments, days and emails their format', () => {
    const props = (name: string) =>
      (
        doc.components.schemas[name] as {
          properties: Record<string, { format?: string; anyOf?: { format?: string }[] }>;
        }
      ).properties;
    const format = (p?: { format?: string; anyOf?: { format?: string }[] }) =>
      p?.format ?? p?.anyOf?.find((a) => a.format)?.format;
    expect(format(props('User').id)).toBe('uuid');
    expect(format(props('User').email)).toBe('email');
    expect(format(props('Profile').created_at)).toBe('date-time');
    expect(format(props('Profile').frozen_at)).toBe('date-time');
    expect(format(props('Invoice').profile_id)).toBe('uuid');
    expect(format(props('Expense').updated_at)).toBe('date-time');
    expect(format(props('Period').id)).toBe('uuid');
    expect(format(props('SatProduct').fecha_inicio_vigencia)).toBe('date');
    expect(format(props('Subscription').currentPeriodEnd)).toBe('date-time');
    const register = op('post', '/auth/register')!.requestBody!.content['application/json'] as {
      schema: { properties: Record<string, { format?: string }> };
    };
    expect(register.schema.properties.email?.format).toBe('email');
  });

  it('carries a license', () => {
    expect((doc as unknown as { info: { license?: object } }).info.license).toEqual({
      name: 'MIT',
      identifier: 'MIT',
    });
  });

  it('lets generators send an upload as it is: a required multipart body, and one raw XML body', () => {
    const upload = op('post', '/profiles/{profileId}/cfdi')!.requestBody as {
      required?: boolean;
      content: Record<string, unknown>;
    };
    expect(upload.required).toBe(true);
    expect(Object.keys(upload.content)).toEqual(['multipart/form-data']);
    const xml = op('post', '/profiles/{profileId}/cfdi/xml')!.requestBody as {
      required?: boolean;
      content: Record<string, { schema: unknown }>;
    };
    expect(xml.required).toBe(true);
    expect(xml.content).toEqual({
      'application/xml': { schema: expect.objectContaining({ type: 'string', format: 'binary' }) },
    });
  });

  it('answers every error with the one ErrorBody schema', () => {
    for (const { method, path, op: o } of operations) {
      for (const [status, res] of Object.entries(o.responses)) {
        if (Number(status) < 400) continue;
        expect(res.content?.['application/json']?.schema?.$ref, `${method} ${path} ${status}`).toBe(
          '#/components/schemas/ErrorBody',
        );
      }
    }
  });
});

describe('examples', () => {
  const schemas: [string, z.ZodType][] = [
    ['Invoice', Invoice],
    ['Profile', Profile],
    ['Expense', Expense],
    ['Period', Period],
    ['User', User],
    ['SatProduct', SatProduct],
    ['FiscalRegime', FiscalRegime],
    ['Pagination', Pagination],
    ['Subscription', Subscription],
    ['AvailablePlan', AvailablePlan],
    ['PlanLimits', PlanLimits],
  ];
  for (const [name, schema] of schemas) {
    it(`${name} has an example that its own schema accepts`, () => {
      const example = doc.components.schemas[name]?.example;
      expect(example).toBeDefined();
      expect(schema.safeParse(example).error).toBeUndefined();
    });
  }

  it('has an ErrorBody example with the stable code and the invalid fields', () => {
    expect(doc.components.schemas.ErrorBody?.example).toEqual({
      error: expect.any(String),
      message: expect.any(String),
      code: 'validation_failed',
      fields: [{ path: expect.any(String), message: expect.any(String) }],
    });
  });

  const bodies: [method: string, path: string][] = [
    ['post', '/auth/register'],
    ['post', '/auth/login'],
    ['post', '/profiles'],
    ['post', '/accrued-expenses'],
    ['post', '/invoices/{id}/payments'],
    ['post', '/periods'],
    ['post', '/subscription/create-checkout'],
  ];
  for (const [method, path] of bodies) {
    it(`${method.toUpperCase()} ${path} has a request example its input schema accepts`, () => {
      const example = op(method, path)?.requestBody?.content['application/json']?.example;
      expect(example).toBeDefined();
      const route = restRoutes().find((r) => r.method.toLowerCase() === method && r.path === path)!;
      const pathParams = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], 'x']));
      expect(
        (route.input as z.ZodType).safeParse({ ...(example as object), ...pathParams }).error,
      ).toBeUndefined();
    });
  }
});
