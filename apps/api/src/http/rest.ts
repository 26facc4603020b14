import {
  type Context as ApiContext,
  AppError,
  appRouter,
  authenticate,
  badRequest,
  coerceParams,
  collectRoutes,
  createCallerFactory,
  createContext,
  errorBody,
  failure,
  queryParamsOf,
  type RestRoute,
  refuseUnknownParams,
} from '@folio/api';
import type { AnyTRPCRouter } from '@trpc/server';
import type { Context, Hono } from 'hono';
import { requestInfo } from './request-context';
import type { AppDeps, AppEnv } from './types';

const JSON_TYPE = /^application\/json\s*(;|$)/i;

async function readInput(c: Context<AppEnv>, route: RestRoute): Promise<Record<string, unknown>> {
  const query = c.req.queries() as Record<string, string[]>;
  refuseUnknownParams(Object.keys(query), queryParamsOf(route));
  const params = coerceParams(route.input, c.req.param() as Record<string, string>);
  if (route.method === 'GET' || route.method === 'DELETE') {
    return { ...coerceParams(route.input, query), ...params };
  }
  if (route.rest.jsonOnly && !JSON_TYPE.test(c.req.header('content-type') ?? '')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
  }
  const text = await c.req.text();
  if (!text.trim()) return params; // a body-less POST is fine where the input allows it
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('Malformed JSON body', 'malformed_json');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('Body must be a JSON object', 'malformed_json');
  }
  // Path parameters win over body fields of the same name.
  return { ...(body as Record<string, unknown>), ...params };
}

function call(caller: unknown, procedure: string, input: unknown): Promise<unknown> {
  const fn = procedure.split('.').reduce<any>((node, key) => node[key], caller);
  return fn(input);
}

const copyHeaders = (c: Context, from: Headers) => {
  for (const [name, value] of from) if (name !== 'set-cookie') c.header(name, value);
  for (const cookie of from.getSetCookie()) c.header('Set-Cookie', cookie, { append: true });
};

/** Serves every procedure that has `meta.openapi` at `/api<path>`, through the tRPC caller. */
export function mountRest(app: Hono<AppEnv>, deps: AppDeps, router: AnyTRPCRouter = appRouter): void {
  const createCaller = createCallerFactory(router);
  for (const route of collectRoutes(router)) {
    const honoPath = `/api${route.path.replace(/\{(\w+)\}/g, ':$1')}`;
    app.on(route.method, honoPath, async (c) => {
      const resHeaders = new Headers();
      try {
        const info = requestInfo(c, deps, resHeaders);
        const ctx: ApiContext = createContext({ ...deps, log: c.get('log') }, info);
        // Who is calling before a byte of the body is read: a stranger's body is never parsed.
        if (route.protect) ctx.principal = await authenticate(ctx, route.access);
        const input = await readInput(c, route);
        const data = await call(createCaller(ctx), route.procedure, input);
        copyHeaders(c, resHeaders);
        return c.json(data as object, (info.status ?? route.rest.successStatus ?? 200) as 200);
      } catch (err) {
        const { status, body, headers } = failure(err, route.rest);
        if (status >= 500) c.get('log').error({ err, procedure: route.procedure }, 'request failed');
        for (const [name, value] of Object.entries(headers)) resHeaders.set(name, value);
        copyHeaders(c, resHeaders);
        return c.json(body, status as 400);
      }
    });
  }
  app.all('/api/*', (c) =>
    c.json(errorBody(404, `No route for ${c.req.method} ${c.req.path}`, { code: 'route_not_found' }), 404),
  );
}
