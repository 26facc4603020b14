import { extendSession, type SessionRow, verifyAccessToken } from '@folio/auth';
import type { Context } from '../../context';
import { unauthorized } from '../../errors';
import { grantAccessToken } from './grant-access-token';
import { forgetSession } from './session-cache';

/**
 * POST /auth/refresh: the live session's expiry moves to now + TTL and the caller gets an access
 * token that lives as long. Bearer clients call it before expiresAt; cookie clients get the cookie.
 */
export async function refreshSession(
  ctx: Context,
  session: SessionRow | null,
): Promise<{ accessToken: string; expiresAt: string }> {
  // authedProcedure already checked the token; its claims carry the session secret to sign again.
  const claims = ctx.req.token ? await verifyAccessToken(ctx.config.authSecret, ctx.req.token) : null;
  if (!session || !claims) throw unauthorized('Only a session access token can be refreshed');
  const { session: extended } = await extendSession(ctx.db, { session }, ctx.config.sessionTtlMs);
  forgetSession(ctx.db, session.id);
  const accessToken = await grantAccessToken(ctx, claims, extended.expiresAt, {
    cookie: ctx.req.tokenSource === 'cookie',
  });
  return { accessToken, expiresAt: extended.expiresAt.toISOString() };
}
