import { errorHelpLink, isErrorCode } from '@folio/api';
import type { MiddlewareHandler } from 'hono';

/**
 * Every JSON error answer links its code's entry in docs/errors.md (`Link: <…#code>; rel="help"`).
 * The error pipeline (failure()) sets it itself; this covers the answers routes build directly
 * (uploads, 404s, 413s), reading the code back from the small body they wrote.
 */
export const errorHelpLinks: MiddlewareHandler = async (c, next) => {
  await next();
  const res = c.res;
  if (res.status < 400 || res.headers.has('Link')) return;
  if (!res.headers.get('Content-Type')?.startsWith('application/json')) return;
  const body: unknown = await res
    .clone()
    .json()
    .catch(() => undefined);
  const code = (body as { code?: unknown } | undefined)?.code;
  if (isErrorCode(code)) c.res.headers.set('Link', errorHelpLink(code));
};
