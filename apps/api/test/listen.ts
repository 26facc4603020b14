import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { answerClientErrors } from '../src/http/client-errors';
import type { TestApp } from './harness';

/** Serves the test app on a free loopback port, for clients that need a real socket (CLI, browser). */
export function listen(t: TestApp): Promise<{ url: string; close(): Promise<void> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    );
    answerClientErrors(server as Server); // as main.ts does
  });
}
