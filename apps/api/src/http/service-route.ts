import {
  type Context as ApiContext,
  authenticate,
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
): Promise<Response> {
  const resHeaders = new Headers();
  const ctx = createContext({ ...deps, log: c.get('log') }, requestInfo(c, deps, resHeaders));
  let res: Response;
  try {
    // These routes read no query parameters: one sent is a mistake worth saying (before any work).
    refuseUnknownParams(Object.keys(c.req.queries()), []);
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
