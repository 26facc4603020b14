import { randomUUID } from 'node:crypto';
import type { Logger, RequestInfo } from '@folio/api';
import { ACCESS_COOKIE } from '@folio/api';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppLogger } from '../logger';
import type { AppDeps, AppEnv } from './types';

const SANE_REQUEST_ID = /^[\w-]{8,64}$/;

/** Request id (a sane incoming one is kept), a child logger carrying it, and one line per request. */
export function requestContext(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const log = requestLogger(deps.log, requestId);
    c.set('requestId', requestId);
    c.set('log', log);
    const started = performance.now();
    await next();
    // On the finished response's headers, as secureHeaders does: c.header() at this point copies the
    // response around its body stream, and @hono/node-server then reads that stream instead of writing
    // the JSON text it holds (CPU and a timer tick of latency per request; docs/benchmarks.md).
    c.res.headers.set('X-Request-Id', requestId);
    if (!deps.log.isLevelEnabled('info')) return;
    const ms = Math.round((performance.now() - started) * 10) / 10;
    log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms }, 'request');
  };
}

/**
 * The request's logger, a pino child carrying its id, made when something first logs: a child (its
 * bindings and redaction) was a visible share of a listing's CPU, and below `info` most requests log
 * nothing (docs/benchmarks.md, "CPU per request").
 */
function requestLogger(base: AppLogger, reqId: string): Logger {
  let child: AppLogger | undefined;
  const log = () => {
    child ??= base.child({ reqId });
    return child;
  };
  return {
    info: (obj, msg) => log().info(obj, msg),
    warn: (obj, msg) => log().warn(obj, msg),
    error: (obj, msg) => log().error(obj, msg),
  };
}

function clientIp(c: Context, trustProxy: boolean): string | null {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null; // in-process requests (app.request) have no socket
  }
}

/** The transport facts a procedure may use; the token comes from Bearer first, then the cookie. */
export function requestInfo(c: Context<AppEnv>, deps: AppDeps, resHeaders: Headers): RequestInfo {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
  const cookie = bearer ? undefined : getCookie(c, ACCESS_COOKIE) || undefined;
  return {
    requestId: c.get('requestId'),
    token: bearer ?? cookie ?? null,
    tokenSource: bearer ? 'bearer' : cookie ? 'cookie' : null,
    method: c.req.method,
    origin: c.req.header('origin') ?? null,
    fetchSite: c.req.header('sec-fetch-site') ?? null,
    ip: clientIp(c, deps.trustProxy),
    idempotencyKey: c.req.header('idempotency-key') ?? null,
    resHeaders,
  };
}
