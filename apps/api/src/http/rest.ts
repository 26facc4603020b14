import {
  type Context as ApiContext,
  AppError,
  appRouter,
  authenticate,
  badRequest,
  byDispatchOrder,
  coerceParams,
  createCallerFactory,
  createContext,
  errorBody,
  failure,
  isProcedureEntry,
  NUL_MESSAGE,
  nulInputError,
  nulPath,
  type RestRoute,
  ROUTE_TABLE,
  type RouteEntry,
  refuseUnknownParams,
  requireSession,
  resolveRoutes,
} from '@folio/api';
import { type AnyTRPCRouter, TRPCError } from '@trpc/server';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { jsonBodyLimit } from './body-limit';
import type { FileHandler } from './file-handler';
import { fileHandlers } from './file-handlers';
import { requestInfo } from './request-context';
import type { AppDeps, AppEnv } from './types';

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** A procedure's JSON input: the query on GET and DELETE, else the body, with the path parameters. */
async function readInput(c: Context<AppEnv>, route: RestRoute<string>): Promise<Record<string, unknown>> {
  const params = coerceParams(route.input, c.req.param() as Record<string, string>);
  if (route.method === 'GET' || route.method === 'DELETE') {
    return { ...coerceParams(route.input, c.req.queries() as Record<string, string[]>), ...params };
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

/** A procedure entry asking for one of its file formats (`?format=xlsx`) is served by its file handler. */
function fileHandlerFor(c: Context<AppEnv>, route: RestRoute<string>): FileHandler | undefined {
  const { entry } = route;
  if (!isProcedureEntry(entry)) return fileHandlers[entry.handler];
  if (!entry.files) return undefined;
  const format = c.req.query('format') ?? 'json';
  return format in entry.files.formats || (format === 'json' && entry.files.json)
    ? fileHandlers[entry.files.handler]
    : undefined;
}

/** An upload entry's handler limits its own body; every other body has the JSON limit. */
function bodyLimitOf(route: RestRoute<string>): MiddlewareHandler {
  if (isProcedureEntry(route.entry) || !route.entry.upload) return jsonBodyLimit;
  const limit = fileHandlers[route.entry.handler].bodyLimit;
  if (!limit) throw new Error(`${route.method} ${route.path} is an upload without a body limit`);
  return limit;
}

const copyHeaders = (res: Response, from: Headers) => {
  for (const [name, value] of from) if (name !== 'set-cookie') res.headers.set(name, value);
  for (const cookie of from.getSetCookie()) res.headers.append('Set-Cookie', cookie);
};

/**
 * Serves every entry of the route table at `/api<path>`, each through the same steps: the request
 * context; who is calling, before a byte of the body is read (a stranger's body is never parsed);
 * the query parameters it does not read, refused; NUL in a path parameter, refused; the body within
 * its limit; then the procedure (through the tRPC caller, so plan and session rules hold as on
 * /trpc) or the file handler; every error through `failure()`. Literal segments are matched before
 * `{param}` ones, whatever the table's order.
 */
export function mountRest<N extends string>(
  app: Hono<AppEnv>,
  deps: AppDeps,
  table: { router: AnyTRPCRouter; routes: readonly RouteEntry<N>[] } = {
    router: appRouter,
    routes: ROUTE_TABLE as readonly RouteEntry<N>[],
  },
): void {
  const createCaller = createCallerFactory(table.router);
  for (const route of byDispatchOrder(resolveRoutes(table.router, table.routes))) {
    const honoPath = `/api${route.path.replace(/\{(\w+)\}/g, ':$1')}`;
    app.on(route.method, honoPath, bodyLimitOf(route), async (c) => {
      const resHeaders = new Headers();
      let res: Response;
      try {
        const info = requestInfo(c, deps, resHeaders);
        const ctx: ApiContext = createContext({ ...deps, log: c.get('log') }, info);
        if (route.protect) ctx.principal = await authenticate(ctx, route.access);
        // Before any body is read (a file handler's included); a procedure's meta says it again for tRPC.
        if (route.sessionOnly && ctx.principal) requireSession(ctx.principal);
        // A parameter the route does not read is a mistake worth saying (before any work).
        refuseUnknownParams(Object.keys(c.req.queries()), route.queryParams);
        // Path parameters go to SQL; PostgreSQL text cannot hold U+0000.
        const nul = nulPath(c.req.param());
        if (nul)
          throw new TRPCError({ code: 'BAD_REQUEST', message: NUL_MESSAGE, cause: nulInputError(nul) });
        const file = fileHandlerFor(c, route);
        if (file) res = await file.run(c, { ctx, deps, route: route as RestRoute });
        else {
          const input = await readInput(c, route);
          // The caller proxy takes a procedure's dotted name as one path (the router's flat record).
          const caller = createCaller(ctx) as unknown as Record<N, (input: unknown) => Promise<unknown>>;
          const data = await caller[route.procedure as N](input);
          res = c.json(data as object, (info.status ?? route.rest.successStatus ?? 200) as 200);
        }
      } catch (err) {
        const { status, body, headers } = failure(err, route.rest);
        if (status >= 500)
          c.get('log').error({ err, procedure: route.procedure, path: route.path }, 'request failed');
        for (const [name, value] of Object.entries(headers)) resHeaders.set(name, value);
        res = c.json(body, status as 400);
      }
      copyHeaders(res, resHeaders);
      return res;
    });
  }
  app.all('/api/*', jsonBodyLimit, (c) =>
    c.json(errorBody(404, `No route for ${c.req.method} ${c.req.path}`, { code: 'route_not_found' }), 404),
  );
}
