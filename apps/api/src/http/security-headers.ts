import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from './types';

/**
 * The usual hardening headers on every response (errors and 404s included): no MIME sniffing, no
 * framing anywhere, HSTS where the app is served over HTTPS in production. A route's own
 * Content-Security-Policy (the XML download's sandbox) is kept.
 */
export function securityHeaders(hsts: boolean): MiddlewareHandler<AppEnv> {
  return secureHeaders({
    xContentTypeOptions: true,
    xFrameOptions: 'DENY',
    contentSecurityPolicy: { frameAncestors: ["'none'"] },
    strictTransportSecurity: hsts ? 'max-age=31536000; includeSubDomains' : false,
    overwrite: false,
  });
}
