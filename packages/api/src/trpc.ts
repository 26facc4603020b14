import { isDatabaseUnavailable } from '@folio/db';
import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import type { Context } from './context';
import { AppError, badRequest } from './errors';
import { failure } from './failure';
import { nulInputError, nulPath } from './input-guard';
import { requireSession } from './services/api-keys/rules';
import { assertNotCrossSite, authenticate } from './services/auth/authenticate';
import { recordFailedRequest } from './services/support/failed-requests';

/**
 * What tRPC itself reads of a procedure (REST routes are declared in rest/table, which reads these too):
 * both transports refuse API keys for a session-only procedure, and a cookie call from another site
 * for one that spends a monthly quota.
 */
export interface Meta {
  /** Needs the user's own session (access token or cookie): an API key gets 403 (plan-features §1). */
  sessionOnly?: true;
  /** Takes a monthly plan quota: a cookie-authenticated call from another site is refused even as a GET. */
  quota?: true;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    transformer: superjson,
    // The REST body's `code` and `fields` ride in the error's data (tRPC's own `data.code` stays).
    // Unexpected failures are logged server-side; the client gets no internals.
    errorFormatter: ({ shape, error }) => {
      const { body } = failure(error);
      const data = { ...shape.data, errorCode: body.code, fields: body.fields };
      return error.code === 'INTERNAL_SERVER_ERROR'
        ? { ...shape, message: body.message, data: { ...data, stack: undefined } }
        : { ...shape, data };
    },
  });

export const router = t.router;

/**
 * An output schema for the OpenAPI document only, which tRPC does not re-check at run time: for
 * answers built field by field by a typed mapper (toInvoice, toExpense). Re-validating a listing
 * page's 50 rows cost more server CPU than mapping them.
 */
export function documentedOutput<T extends object>(schema: T): T {
  const same = (value: unknown) => value;
  return Object.create(schema, {
    parse: { value: same },
    parseAsync: { value: async (value: unknown) => value },
  });
}
export const createCallerFactory = t.createCallerFactory;

/** Services throw AppError; both transports see a TRPCError with the same code and message. */
const domainErrors = t.middleware(async ({ ctx, next }) => {
  const result = await next();
  if (result.ok) return result;
  for (const [name, value] of Object.entries(failure(result.error).headers)) {
    ctx.req.resHeaders.set(name, value);
  }
  if (isDatabaseUnavailable(result.error.cause)) {
    throw new TRPCError({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The database is unavailable; retry shortly',
      cause: result.error.cause,
    });
  }
  if (result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: cause.code, message: cause.message, cause });
  }
  return result;
});

/** Input strings holding U+0000 are invalid input (PostgreSQL text cannot store them): 400/422, not 500. */
const refuseNul = t.middleware(async ({ next, getRawInput }) => {
  const at = nulPath(await getRawInput());
  if (at) throw new TRPCError({ code: 'BAD_REQUEST', message: 'NUL in input', cause: nulInputError(at) });
  return next();
});

// It becomes part of a btree key (and of Stripe's, which takes 255): an unchecked long one was a 500.
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

const checkIdempotencyKey = t.middleware(({ ctx, next }) => {
  const key = ctx.req.idempotencyKey;
  if (key && !IDEMPOTENCY_KEY.test(key))
    throw badRequest('Idempotency-Key: at most 255 printable ASCII characters', 'idempotency_key_invalid');
  return next();
});

/** A query only reads (a `read` API key may call it); anything else writes. */
export const accessOf = (type: string) => (type === 'query' ? 'read' : 'write') as 'read' | 'write';

const withErrors = t.procedure.use(domainErrors);

export const publicProcedure = withErrors.use(refuseNul).use(checkIdempotencyKey);

/**
 * The one place the API layer decides who the caller is (and refuses cross-site cookie writes, and
 * cross-site cookie reads that spend a quota). It runs before anything reads the input: tRPC reads
 * the body only when a middleware first asks for it, so a caller who is not let in never has a byte
 * of it read (a 60 MB `cfdi.import` from nobody costs nothing). The REST layer authenticates before
 * it reads the body and hands the principal over in `ctx.principal`.
 */
export const authedProcedure = withErrors
  .use(async ({ ctx, next, type, meta }) => {
    const principal = ctx.principal ?? (await authenticate(ctx, accessOf(type)));
    if (meta?.sessionOnly) requireSession(principal);
    if (meta?.quota) assertNotCrossSite(ctx);
    return next({ ctx: { ...ctx, user: principal.user, session: principal.session, principal } });
  })
  // A known caller's failed call (bad input included) leaves its request id for support (docs/support.md).
  .use(async ({ ctx, next }) => {
    const result = await next();
    if (!result.ok) {
      const { status, body } = failure(result.error);
      await recordFailedRequest(ctx, ctx.user.id, { status, code: body.code });
    }
    return result;
  })
  .use(refuseNul)
  .use(checkIdempotencyKey);
