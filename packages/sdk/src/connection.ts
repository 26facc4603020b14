import { FolioApiError } from './errors';
import { createRestClient, type FolioRestClient } from './rest';
import { type RetryOptions, resilientFetch } from './retry';
import type { TokenGetter } from './token-getter';
import { expiryOf, type RefreshOptions, refreshingToken } from './token-refresh';

export type { TokenGetter } from './token-getter';

export interface FolioClientOptions {
  /**
   * Where the API runs, e.g. `http://localhost:3000` (the tRPC endpoint is `/trpc`, REST is `/api`).
   * The OpenAPI document's server URL (`…/api`) works too.
   */
  baseUrl: string;
  /**
   * Log in with these (`POST /api/auth/login`) on the first call, refresh the session as it nears
   * its end, and log in again once it has ended. Instead of `token`, `getToken` or `apiKey`.
   */
  email?: string | undefined;
  password?: string | undefined;
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
  /** Give up on an attempt that has no answer (headers) after this many ms (default: no limit). */
  timeout?: number | undefined;
  /**
   * Retry network failures, 429 and 503 (honouring `Retry-After`) with an exponential back-off:
   * a number of further attempts, or the back-off too (default 0: no retry). POST, PUT and PATCH
   * are retried with an `Idempotency-Key` the client makes once per call.
   */
  retries?: number | RetryOptions | undefined;
}

/** What both transports need from the options: where the API is and the Authorization to send. */
export interface Connection {
  baseUrl: string;
  authorization(): Promise<string | null>;
  fetch: typeof globalThis.fetch | undefined;
  headers: Record<string, string> | undefined;
}

/** The server's root: without trailing slashes, nor the `/api` the OpenAPI server URL ends with. */
export const rootOf = (url: string) => url.replace(/\/+$/, '').replace(/\/api$/, '');

/** Checks the options and resolves the credential (token, getToken or apiKey; refreshed tokens). */
export function connect(options: FolioClientOptions): Connection {
  if (!options?.baseUrl) throw new TypeError('createFolioClient: baseUrl is required');
  const baseUrl = rootOf(options.baseUrl);
  const { apiKey, email, password } = options;
  const credentials = email != null || password != null;
  if (credentials && (!email || !password)) {
    throw new TypeError('createFolioClient: give both email and password');
  }
  if (credentials && (apiKey != null || options.token != null || options.getToken)) {
    throw new TypeError('createFolioClient: give email/password, apiKey or token/getToken, only one');
  }
  if (apiKey != null) {
    if (options.token != null || options.getToken) {
      throw new TypeError('createFolioClient: give apiKey or token/getToken, not both');
    }
    if (!apiKey.startsWith('folio_')) {
      throw new TypeError('createFolioClient: apiKey must be a Folio API key (it starts with folio_)');
    }
  }
  const retries = typeof options.retries === 'number' ? { retries: options.retries } : options.retries;
  const userFetch = resilientFetch(() => options.fetch ?? globalThis.fetch, {
    ...retries,
    timeoutMs: options.timeout,
  });
  const given: TokenGetter = credentials
    ? loggingIn(() => postLogin(baseUrl, email!, password!, userFetch))
    : (options.getToken ?? (() => apiKey ?? options.token));
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
async function postRefresh(baseUrl: string, token: string, fetchImpl: typeof fetch) {
  const res = await fetchImpl(`${baseUrl}/api/auth/refresh`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  if (!res.ok) return null;
  return (await res.json()) as { accessToken: string; expiresAt: string };
}

/** `POST /api/auth/login`; a refusal (wrong password, unverified email…) throws its FolioApiError. */
async function postLogin(baseUrl: string, email: string, password: string, fetchImpl: typeof fetch) {
  const res = await fetchImpl(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw FolioApiError.fromResponse(res, body);
  return (body as { accessToken: string }).accessToken;
}

/** The session's token: logged in on first use (one login at a time) and again once it has expired. */
function loggingIn(login: () => Promise<string>): TokenGetter {
  let current: Promise<string> | undefined;
  const start = () => {
    const pending = login();
    current = pending;
    pending.catch(() => {
      if (current === pending) current = undefined;
    });
    return pending;
  };
  return async () => {
    const token = await (current ?? start());
    const exp = expiryOf(token);
    return exp !== null && exp <= Date.now() ? start() : token;
  };
}
