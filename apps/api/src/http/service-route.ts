import {
  type Context as ApiContext,
  authenticate,
  coerceParams,
  createContext,
  failure,
  NUL_MESSAGE,
  nulInputError,
  nulPath,
  type Principal,
  refuseUnknownParams,
} from '@folio/api';
import { TRPCError } from '@trpc/server';
import type { Context } from 'hono';
import type { z } from 'zod';
import { requestInfo } from './request-context';
import type { AppDeps, AppEnv } from './types';

/**
 * Runs a service for a route that is not a procedure (file upload, raw XML): the same context,
 * authentication, error mapping and response headers as the REST layer.
 */
export async function serviceRoute(
  c: Context<AppEnv>,
  deps: AppDeps,
  run: (ctx: ApiContext, auth: Principal) => Promise<Response>,
  /** The query parameters the route reads (a file download's filters); any other is refused. */
  knownParams: readonly string[] = [],
): Promise<Response> {
  const resHeaders = new Headers();
  const ctx = createContext({ ...deps, log: c.get('log') }, requestInfo(c, deps, resHeaders));
  let res: Response;
  try {
    // A parameter the route does not read is a mistake worth saying (before any work).
    refuseUnknownParams(Object.keys(c.req.queries()), knownParams);
    const auth = await authenticate(ctx, c.req.method === 'GET' ? 'read' : 'write');
    // Path parameters go to SQL; PostgreSQL text cannot hold U+0000 (as the procedure layer refuses).
    const nul = nulPath(c.req.param());
    if (nul) throw new TRPCError({ code: 'BAD_REQUEST', message: NUL_MESSAGE, cause: nulInputError(nul) });
    res = await run(ctx, auth);
  } catch (err) {
    const { status, body, headers } = failure(err);
    for (const [name, value] of Object.entries(headers)) resHeaders.set(name, value);
    if (status >= 500) c.get('log').error({ err, path: c.req.path }, 'request failed');
    res = c.json(body, status as 400);
  }
  for (const [name, value] of resHeaders) if (name !== 'set-cookie') res.headers.set(name, value);
  for (const cookie of resHeaders.getSetCookie()) res.headers.append('Set-Cookie', cookie);
  return res;
}

/**
 * The route's query as its schema wants it, coerced and validated as a procedure's input is (400
 * `validation_failed` naming the field); NUL refused, as everywhere text reaches SQL.
 */
export function queryInput<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.output<S> {
  const raw = c.req.queries();
  const nul = nulPath(raw);
  if (nul) throw new TRPCError({ code: 'BAD_REQUEST', message: NUL_MESSAGE, cause: nulInputError(nul) });
  const parsed = schema.safeParse(coerceParams(schema, raw));
  if (!parsed.success)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Invalid query', cause: parsed.error });
  return parsed.data;
}
