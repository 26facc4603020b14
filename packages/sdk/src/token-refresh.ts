import type { TokenGetter } from './token-getter';

export interface RefreshOptions {
  /** Refresh once less than this much of the token's life is left (default: one day). */
  refreshBeforeMs?: number | undefined;
  /** Told the new token after each refresh, e.g. to store it where the next run reads it. */
  onTokenRefresh?: ((token: string, expiresAt: Date) => void | Promise<void>) | undefined;
}

const DAY = 86_400_000;

/** The `exp` of a JWT access token in ms, or null for anything else (read only; the server verifies). */
export function expiryOf(token: string): number | null {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')));
    return typeof payload.exp === 'number' ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}

/**
 * Sessions slide on the server, but a Bearer token carries a fixed expiry: shortly before it, this
 * asks `POST /api/auth/refresh` for a token with the session's new expiry and uses it from then on.
 * One refresh at a time; if it fails, the old token is used until the server refuses it.
 */
export function refreshingToken(
  source: TokenGetter,
  refresh: (token: string) => Promise<{ accessToken: string; expiresAt: string } | null>,
  options: RefreshOptions = {},
): TokenGetter {
  const before = options.refreshBeforeMs ?? DAY;
  let replaced: { from: string; to: string } | undefined;
  let pending: Promise<string> | undefined;

  const renew = async (token: string): Promise<string> => {
    const fresh = await refresh(token).catch(() => null);
    if (!fresh) return token;
    replaced = { from: token, to: fresh.accessToken };
    await options.onTokenRefresh?.(fresh.accessToken, new Date(fresh.expiresAt));
    return fresh.accessToken;
  };

  return async () => {
    const given = await source();
    if (!given) return given;
    const token = replaced?.from === given ? replaced.to : given;
    const exp = expiryOf(token);
    if (exp === null || exp <= Date.now() || exp - Date.now() > before) return token;
    pending ??= renew(token).finally(() => {
      pending = undefined;
    });
    return pending;
  };
}
