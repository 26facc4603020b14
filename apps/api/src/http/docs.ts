import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_DOCS_PATH } from '@folio/api';
import { Scalar } from '@scalar/hono-api-reference';
import type { Context, Hono } from 'hono';
import type { AppDeps, AppEnv } from './types';

const require = createRequire(import.meta.url);
// The package exports no subpath for its browser bundle; find it beside the main entry (dist/).
const SCALAR_BUNDLE = join(dirname(require.resolve('@scalar/api-reference')), 'browser/standalone.js');
/** The error codes' reference, which every error answer's `Link: rel="help"` points into. */
const ERRORS_MD = fileURLToPath(new URL('../../../../docs/errors.md', import.meta.url));

/** A folio (a numbered sheet) in the page's accent colour. */
const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="5" y="2" width="22" height="28" rx="3" fill="#0f766e"/>' +
  '<path d="M10 10h12M10 15h12M10 20h8" stroke="#fff" stroke-width="2" stroke-linecap="round"/></svg>';

/** /api/openapi.json and the Scalar page at /api/docs, served without any CDN. */
export function mountDocs(app: Hono<AppEnv>, deps: Pick<AppDeps, 'version' | 'config'>): void {
  // Built by the first request for it, with the generator loaded then: the document and
  // trpc-to-openapi are MBs that neither a start nor an app in a test needs (docs/benchmarks.md#memory).
  let doc: Promise<object> | undefined;
  let bundle: Promise<Buffer> | undefined;
  let errors: Promise<string> | undefined;
  app.get('/api/openapi.json', async (c) => {
    doc ??= import('@folio/api/openapi').then(({ buildOpenApiDocument }) =>
      buildOpenApiDocument({ version: deps.version, serverUrl: `${deps.config.appUrl}/api` }),
    );
    return c.json(await doc);
  });
  app.get(ERROR_DOCS_PATH, async (c) => {
    errors ??= readFile(ERRORS_MD, 'utf8');
    c.header('Cache-Control', 'public, max-age=3600');
    return c.body(await errors, 200, { 'Content-Type': 'text/markdown; charset=utf-8' });
  });
  app.get('/api/docs/scalar.js', async (c) => {
    bundle ??= readFile(SCALAR_BUNDLE);
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(new Uint8Array(await bundle), 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });
  const favicon = (c: Context<AppEnv>) =>
    c.body(FAVICON, 200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400' });
  app.get('/favicon.ico', favicon);
  app.get('/api/docs/favicon.svg', favicon);
  app.get(
    '/api/docs',
    Scalar({
      url: '/api/openapi.json',
      pageTitle: 'Folio API',
      cdn: '/api/docs/scalar.js',
      favicon: '/api/docs/favicon.svg',
      withDefaultFonts: false,
      // The hosted-service buttons (Ask AI, Generate MCP, the developer toolbar with Deploy) do
      // nothing offline and would send a tax API's document to a third party: off.
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      telemetry: false,
    }),
  );
}
