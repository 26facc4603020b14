import { createRestClient, type FolioRestClient } from './rest';
import { type RefreshOptions, refreshingToken } from './session';
import type { TokenGetter } from './token-getter';

export type { TokenGetter } from './token-getter';

export interface FolioClientOptions {
  /** Where the API runs, e.g. `http://localhost:3000` (the tRPC endpoint is `/trpc`, REST is `/api`). */
  baseUrl: string;
  /** An access token from `POST /api/auth/login` (`accessToken`). */
  token?: string | null | undefined;
  /** Called before every request instead of `token`, e.g. to read a refreshed token. */
  getToken?: TokenGetter | undefined;
  /**
   * An API key (`folio_…`, from `POST /api/api-keys`) for scripts and servers: sent like a token,
   * it never expires with a session. Give it or a token, not both.
   */
  apiKey?: string | null | undefined;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof globalThis.fetch | undefined;
  /** Extra headers on every request. */
  headers?: Record<string, string> | undefined;
  /**
   * Shortly before the access token expires the client gets a fresh one from `POST /api/auth/refresh`
   * (the session slides) and uses it from then on. Tune it here, or pass `false` to turn it off.
   */
  refresh?: RefreshOptions | false | undefined;
}

/** What both transports need from the options: where the API is and the Authorization to send. */
export interface Connection {
  baseUrl: string;
  authorization(): Promise<string | null>;
  fetch: typeof globalThis.fetch | undefined;
  headers: Record<string, string> | undefined;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Checks the options and resolves the credential (token, getToken or apiKey; refreshed tokens). */
export function connect(options: FolioClientOptions): Connection {
  if (!options?.baseUrl) throw new TypeError('createFolioClient: baseUrl is required');
  const baseUrl = trimSlash(options.baseUrl);
  const { apiKey } = options;
  if (apiKey != null) {
    if (options.token != null || options.getToken) {
      throw new TypeError('createFolioClient: give apiKey or token/getToken, not both');
    }
    if (!apiKey.startsWith('folio_')) {
      throw new TypeError('createFolioClient: apiKey must be a Folio API key (it starts with folio_)');
    }
  }
  const userFetch = options.fetch;
  const given: TokenGetter = options.getToken ?? (() => apiKey ?? options.token);
  // API keys do not expire like sessions; only access tokens are refreshed.
  const tokenOf =
    options.refresh === false || apiKey != null
      ? given
      : refreshingToken(given, (token) => postRefresh(baseUrl, token, userFetch), options.refresh);
  const authorization = async () => {
    const token = await tokenOf();
    return token ? `Bearer ${token}` : null;
  };

  return { baseUrl, authorization, fetch: userFetch, headers: options.headers };
}

/**
 * The REST client alone (`@folio/sdk/rest`): it loads nothing of tRPC, so an app that only speaks
 * REST installs neither tRPC nor the TypeScript its peer dependency asks for.
 */
export function createFolioRestClient(options: FolioClientOptions): FolioRestClient {
  return restOf(connect(options));
}

export const restOf = (c: Connection): FolioRestClient =>
  createRestClient({
    baseUrl: `${c.baseUrl}/api`,
    fetch: c.fetch,
    headers: c.headers,
    authorization: c.authorization,
  });

/** `POST /api/auth/refresh` with the current token; null when the server does not renew it. */
async function postRefresh(baseUrl: string, token: string, fetchImpl = globalThis.fetch) {
  const res = await fetchImpl(`${baseUrl}/api/auth/refresh`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  if (!res.ok) return null;
  return (await res.json()) as { accessToken: string; expiresAt: string };
}
