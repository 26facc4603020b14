import { createTRPCClient, httpBatchLink, httpLink, splitLink, type TRPCClient } from '@trpc/client';
import superjson from 'superjson';
import { createRestClient, type FolioRestClient } from './rest';
import type { AppRouter } from './router';
import { type RefreshOptions, refreshingToken } from './session';

export type TokenGetter = () => string | null | undefined | Promise<string | null | undefined>;

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

export interface FolioClient {
  /** The typed tRPC client: `await folio.trpc.invoices.list.query({ año: 2025 })`. */
  trpc: TRPCClient<AppRouter>;
  /** The typed REST client: `await folio.rest.GET('/invoices', { params: { query: { año: 2025 } } })`. */
  rest: FolioRestClient;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function createFolioClient(options: FolioClientOptions): FolioClient {
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

  const linkOptions = {
    url: `${baseUrl}/trpc`,
    transformer: superjson,
    async headers() {
      const value = await authorization();
      return { ...options.headers, ...(value ? { authorization: value } : {}) };
    },
    fetch: (url: Parameters<typeof fetch>[0], init: unknown) =>
      (userFetch ?? globalThis.fetch)(url, init as RequestInit),
  };
  // The server takes at most 10 calls per batch and the auth mutations one per request.
  const trpc = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'mutation' && op.path.startsWith('auth.'),
        true: httpLink(linkOptions),
        false: httpBatchLink({ ...linkOptions, maxURLLength: 4000, maxItems: 10 }),
      }),
    ],
  });

  const rest = createRestClient({
    baseUrl: `${baseUrl}/api`,
    fetch: userFetch,
    headers: options.headers,
    authorization,
  });

  return { trpc, rest };
}

/** `POST /api/auth/refresh` with the current token; null when the server does not renew it. */
async function postRefresh(baseUrl: string, token: string, fetchImpl = globalThis.fetch) {
  const res = await fetchImpl(`${baseUrl}/api/auth/refresh`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  if (!res.ok) return null;
  return (await res.json()) as { accessToken: string; expiresAt: string };
}
