import type { Context } from '../../context';
import { forbidden } from '../../errors';

export const ACCESS_COOKIE = 'access_token';
export const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Login CSRF: a cross-site form or fetch must not set (or clear) the session cookie in the victim's
 * browser. Browsers send Origin on every such request; clients without one (CLI, SDK) are not browsers.
 */
export function assertCookieOrigin(ctx: Context): void {
  const { method, origin } = ctx.req;
  if (!method || !UNSAFE_METHODS.has(method) || origin === null) return;
  if (origin !== new URL(ctx.config.appUrl).origin) {
    throw forbidden(
      'Cross-site request refused: requests that set the session cookie need an Origin matching APP_URL',
    );
  }
}

function cookie(ctx: Context, value: string, maxAgeSeconds: number): string {
  const secure = ctx.config.secureCookies ? '; Secure' : '';
  return `${ACCESS_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

export function setAccessCookie(ctx: Context, jwt: string, expiresAt: Date): void {
  assertCookieOrigin(ctx);
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  ctx.req.resHeaders.append('Set-Cookie', cookie(ctx, jwt, maxAge));
}

export function clearAccessCookie(ctx: Context): void {
  assertCookieOrigin(ctx);
  ctx.req.resHeaders.append('Set-Cookie', cookie(ctx, '', 0));
}
