import { createTRPCClient, httpBatchLink, httpLink, splitLink, type TRPCClient } from '@trpc/client';
import superjson from 'superjson';
import { connect, type FolioClientOptions, restOf } from './connection';
import type { FolioRestClient } from './rest';
import type { AppRouter } from './router';

export interface FolioClient {
  /** The typed tRPC client: `await folio.trpc.invoices.list.query({ año: 2025 })`. */
  trpc: TRPCClient<AppRouter>;
  /** The typed REST client: `await folio.rest.GET('/invoices', { params: { query: { año: 2025 } } })`. */
  rest: FolioRestClient;
}

export function createFolioClient(options: FolioClientOptions): FolioClient {
  const c = connect(options);
  const userFetch = c.fetch;
  const linkOptions = {
    url: `${c.baseUrl}/trpc`,
    transformer: superjson,
    async headers() {
      const value = await c.authorization();
      return { ...c.headers, ...(value ? { authorization: value } : {}) };
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

  return { trpc, rest: restOf(c) };
}
