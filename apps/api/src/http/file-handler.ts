import {
  type Context as ApiContext,
  AppError,
  coerceParams,
  NUL_MESSAGE,
  nulInputError,
  nulPath,
  type Principal,
  type RestRoute,
} from '@folio/api';
import { TRPCError } from '@trpc/server';
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { AppDeps, AppEnv } from './types';

/** What the request pipeline hands a file handler, once it has let the caller in. */
export interface FileCall {
  ctx: ApiContext;
  deps: AppDeps;
  route: RestRoute;
}

/**
 * Serves a route table entry that is not JSON in and out (files in or out, the provider's webhook).
 * The pipeline has authenticated, checked the parameters and limited the body; errors thrown go
 * through the one `failure()`.
 */
export interface FileHandler {
  run(c: Context<AppEnv>, call: FileCall): Promise<Response>;
  /** An upload entry's body limit, in place of the JSON one (it may depend on the content type). */
  bodyLimit?: MiddlewareHandler;
}

/** The caller of a protected route (the pipeline authenticated it). */
export function principalOf(call: FileCall): Principal {
  if (!call.ctx.principal) throw new AppError('UNAUTHORIZED', 'Authentication required');
  return call.ctx.principal;
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
