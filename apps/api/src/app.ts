import { errorBody } from '@folio/api';
import { Hono } from 'hono';
import { mountDevBilling } from './dev/billing';
import { mountDevMail } from './dev/mail';
import { mountDevSat } from './dev/sat';
import { mountAccountPages } from './http/account-pages';
import { mountBillingReturn } from './http/billing-return';
import { limitBody } from './http/body-limit';
import { mountDocs } from './http/docs';
import { errorHelpLinks } from './http/error-help-link';
import { mountExports } from './http/exports';
import { mountReportFiles } from './http/reports';
import { requestContext } from './http/request-context';
import { mountRest } from './http/rest';
import { securityHeaders } from './http/security-headers';
import { mountTrpc } from './http/trpc';
import type { AppDeps, AppEnv } from './http/types';
import { mountCfdiFiles, UPLOAD_PATH } from './http/uploads/cfdi-upload';
import { mountSatMetadataUpload } from './http/uploads/sat-metadata-upload';
import { mountStripeWebhook } from './http/webhook';

export const JSON_BODY_LIMIT = 1024 * 1024;
const HEALTH_TIMEOUT_MS = 2000;

const jsonBodyLimit = limitBody(JSON_BODY_LIMIT, 'Request body exceeds the 1 MB limit');
const trpcImportLimit = limitBody(60 * 1024 * 1024, 'Request body exceeds the 60 MB import limit');

/** The whole HTTP surface; built from dependencies so tests run it in-process with `app.request()`. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', securityHeaders(deps.hsts));
  app.use('*', requestContext(deps));
  app.use('*', errorHelpLinks);
  // Uploads carry their own, larger limit; tRPC imports send XML text in JSON.
  app.use('/api/*', (c, next) => (UPLOAD_PATH.test(c.req.path) ? next() : jsonBodyLimit(c, next)));
  app.use('/trpc/*', (c, next) =>
    /^\/trpc\/(cfdi|satMetadata)\.import/.test(c.req.path)
      ? trpcImportLimit(c, next)
      : jsonBodyLimit(c, next),
  );

  app.get('/health', async (c) => {
    try {
      // A database that accepts the connection but never answers must not hang the probe.
      await Promise.race([
        deps.ping(),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('no answer in 2 s')), HEALTH_TIMEOUT_MS).unref(),
        ),
      ]);
      return c.json({ status: 'ok', db: deps.dbKind });
    } catch (err) {
      c.get('log').warn({ err }, 'health check failed');
      return c.json({ status: 'unavailable', db: deps.dbKind }, 503);
    }
  });
  mountDocs(app, deps);
  if (deps.devSurfaces) mountDevMail(app, deps);
  if (deps.devSurfaces) mountDevSat(app, deps);
  if (deps.billing.devPages) mountDevBilling(app, deps);
  mountBillingReturn(app, deps);
  mountAccountPages(app, deps); // before the REST layer: the verification link serves people HTML
  mountTrpc(app, deps);
  mountCfdiFiles(app, deps);
  mountSatMetadataUpload(app, deps);
  mountExports(app, deps);
  mountReportFiles(app, deps);
  mountStripeWebhook(app, deps); // before the REST layer's catch-all /api/* 404
  mountRest(app, deps);

  app.notFound((c) =>
    c.json(errorBody(404, `No route for ${c.req.method} ${c.req.path}`, { code: 'route_not_found' }), 404),
  );
  app.onError((err, c) => {
    c.get('log').error({ err }, 'unhandled error');
    return c.json(errorBody(500, 'An unexpected error occurred'), 500);
  });
  return app;
}
