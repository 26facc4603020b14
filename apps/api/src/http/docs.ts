import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildOpenApiDocument } from '@folio/api';
import { Scalar } from '@scalar/hono-api-reference';
import type { Hono } from 'hono';
import type { AppEnv } from './types';

const require = createRequire(import.meta.url);
// The package exports no subpath for its browser bundle; find it beside the main entry (dist/).
const SCALAR_BUNDLE = join(dirname(require.resolve('@scalar/api-reference')), 'browser/standalone.js');

/** /api/openapi.json and the Scalar page at /api/docs, served without any CDN. */
export function mountDocs(app: Hono<AppEnv>, version: string): void {
  const doc = buildOpenApiDocument({ version });
  let bundle: Promise<Buffer> | undefined;
  app.get('/api/openapi.json', (c) => c.json(doc));
  app.get('/api/docs/scalar.js', async (c) => {
    bundle ??= readFile(SCALAR_BUNDLE);
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(new Uint8Array(await bundle), 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });
  app.get(
    '/api/docs',
    Scalar({
      url: '/api/openapi.json',
      pageTitle: 'Folio API',
      cdn: '/api/docs/scalar.js',
      withDefaultFonts: false,
    }),
  );
}
