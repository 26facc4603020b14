import type { Context } from '../../context';

export const ACCESS_COOKIE = 'access_token';

function cookie(ctx: Context, value: string, maxAgeSeconds: number): string {
  const secure = ctx.config.secureCookies ? '; Secure' : '';
  return `${ACCESS_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

export function setAccessCookie(ctx: Context, jwt: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  ctx.req.resHeaders.append('Set-Cookie', cookie(ctx, jwt, maxAge));
}

export function clearAccessCookie(ctx: Context): void {
  ctx.req.resHeaders.append('Set-Cookie', cookie(ctx, '', 0));
}
