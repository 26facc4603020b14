import { isApiKey, type ValidSession, verifyAccessToken } from '@folio/auth';
import type { Context } from '../../context';
import { forbidden, unauthorized } from '../../errors';
import { authenticateApiKey } from '../api-keys/authenticate-key';
import { UNSAFE_METHODS } from './cookies';
import { grantAccessToken } from './grant-access-token';
import type { Principal } from './principal';
import { liveSession } from './session-cache';

/** The caller's session from the access token, or null when it is missing, invalid, revoked or expired. */
export async function resolveSession(ctx: Context): Promise<ValidSession | null> {
  const { token } = ctx.req;
  if (!token) return null;
  const claims = await verifyAccessToken(ctx.config.authSecret, token);
  if (!claims) return null;
  const valid = await liveSession(ctx, claims.sessionToken);
  if (!valid || valid.user.id !== claims.userId) return null;
  // Bearer clients renew with POST /auth/refresh; a cookie is renewed in passing.
  if (valid.renewed && ctx.req.tokenSource === 'cookie') {
    await grantAccessToken(ctx, claims, valid.session.expiresAt, { cookie: true });
  }
  return valid;
}

/**
 * A browser sends cookies on cross-site requests too, so a cookie-authenticated write must come from
 * our own origin (Lucia's CSRF guidance). Bearer tokens are never sent implicitly and need no check.
 */
export function assertSameOrigin(ctx: Context): void {
  const { tokenSource, method, origin } = ctx.req;
  if (tokenSource !== 'cookie' || !method || !UNSAFE_METHODS.has(method)) return;
  if (origin !== new URL(ctx.config.appUrl).origin) {
    throw forbidden(
      'Cross-site request refused: cookie-authenticated writes need an Origin matching APP_URL',
    );
  }
}

/** What a browser says of a request from our own origin, or typed / bookmarked by its user. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * A cookie rides along on a cross-site top-level GET too (SameSite=Lax), so a read that spends a
 * quota or writes state (the SAT searches: quota and history) must not run for another site's link
 * or form. The browser's `Sec-Fetch-Site` tells; clients that send none (Bearer, API keys, scripts
 * with a cookie) are not browsers following someone else's page.
 */
export function assertNotCrossSite(ctx: Context): void {
  const { tokenSource, fetchSite } = ctx.req;
  if (tokenSource !== 'cookie' || !fetchSite || OWN_FETCH_SITES.has(fetchSite)) return;
  throw forbidden(
    'Cross-site request refused: this request spends quota or writes state, and came from another site with your cookie',
    'cross_site_refused',
  );
}

/**
 * The caller from the Bearer credential (access token or API key) or the cookie; `access` says
 * whether the operation only reads (GET, tRPC query) or writes, which a read-only key may not.
 */
export async function authenticate(ctx: Context, access: 'read' | 'write'): Promise<Principal> {
  const { token } = ctx.req;
  if (!token) throw unauthorized('Missing access token');
  if (isApiKey(token)) {
    // Only as a header: a key in a cookie would ride along on cross-site requests.
    if (ctx.req.tokenSource !== 'bearer')
      throw unauthorized('Send API keys as Authorization: Bearer', 'api_key_invalid');
    return authenticateApiKey(ctx, token, access);
  }
  const valid = await resolveSession(ctx);
  if (!valid) throw unauthorized('Invalid or expired access token');
  assertSameOrigin(ctx);
  return { user: valid.user, via: 'session', scope: 'write', session: valid.session, apiKeyId: null };
}
