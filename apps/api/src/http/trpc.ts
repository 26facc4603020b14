import { appRouter, createContext } from '@folio/api';
import { TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { Hono } from 'hono';
import { requestInfo } from './request-context';
import type { AppDeps, AppEnv } from './types';

/** Procedures one /trpc request may batch (documented in docs/contract.md#limits). */
export const MAX_BATCH = 10;

/** The tRPC endpoint (superjson) for TypeScript clients: same procedures, same rules as /api. */
export function mountTrpc(app: Hono<AppEnv>, deps: AppDeps): void {
  app.all('/trpc/*', (c) =>
    fetchRequestHandler({
      endpoint: '/trpc',
      req: c.req.raw,
      router: appRouter,
      // One request must not buy many password checks (argon2 each): batches are capped, and the
      // auth mutations go one per request, where the per-request rate limits see each of them.
      maxBatchSize: MAX_BATCH,
      createContext: ({ resHeaders, info }) => {
        if (
          info.isBatchCall &&
          c.req.method === 'POST' &&
          info.calls.some((call) => call.path.startsWith('auth.'))
        )
          throw new TRPCError({ code: 'BAD_REQUEST', message: 'auth mutations cannot be batched' });
        return createContext({ ...deps, log: c.get('log') }, requestInfo(c, deps, resHeaders));
      },
      onError: ({ error, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          c.get('log').error({ err: error, procedure: path }, 'trpc failed');
      },
    }),
  );
}
