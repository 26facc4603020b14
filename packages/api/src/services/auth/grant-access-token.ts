import { type AccessTokenClaims, signAccessToken } from '@folio/auth';
import type { Context } from '../../context';
import { setAccessCookie } from './cookies';

/** Signs an access token that lives as long as its session, and sets it as the cookie when asked. */
export async function grantAccessToken(
  ctx: Context,
  claims: AccessTokenClaims,
  expiresAt: Date,
  opts: { cookie: boolean },
): Promise<string> {
  const jwt = await signAccessToken(ctx.config.authSecret, claims, expiresAt);
  if (opts.cookie) setAccessCookie(ctx, jwt, expiresAt);
  return jwt;
}
