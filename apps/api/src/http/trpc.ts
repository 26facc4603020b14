import { appRouter, createContext } from '@folio/api';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { Hono } from 'hono';
import { requestInfo } from './request-context';
import type { AppDeps, AppEnv } from './types';

/** The tRPC endpoint (superjson) for TypeScript clients: same procedures, same rules as /api. */
export function mountTrpc(app: Hono<AppEnv>, deps: AppDeps): void {
  app.all('/trpc/*', (c) =>
    fetchRequestHandler({
      endpoint: '/trpc',
      req: c.req.raw,
      router: appRouter,
      createContext: ({ resHeaders }) =>
        createContext({ ...deps, log: c.get('log') }, requestInfo(c, deps, resHeaders)),
      onError: ({ error, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR')
          c.get('log').error({ err: error, procedure: path }, 'trpc failed');
      },
    }),
  );
}
