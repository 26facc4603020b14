import { apiKeysRoutes } from './table/api-keys';
import { authRoutes } from './table/auth';
import { diotRoutes } from './table/diot';
import { downloadRoutes } from './table/downloads';
import { efirmaRoutes } from './table/efirma';
import type { RouteEntry } from './table/entry';
import { expensesRoutes } from './table/expenses';
import { invoicesRoutes } from './table/invoices';
import { periodsRoutes } from './table/periods';
import { profilesRoutes } from './table/profiles';
import { reportsRoutes } from './table/reports';
import { satRoutes } from './table/sat';
import { satMetadataRoutes } from './table/sat-metadata';
import { satSyncRoutes } from './table/sat-sync';
import { subscriptionRoutes } from './table/subscription';
import { supportRoutes } from './table/support';
import { uploadRoutes } from './table/uploads';
import { webhookEndpointsRoutes } from './table/webhook-endpoints';
import { webhookRoutes } from './table/webhooks';

/**
 * Every REST operation, one entry each: the dispatcher (apps/api), the OpenAPI document, the
 * authorization matrix and the hostile-input sweep all read this list. Adding a route is one entry
 * here; its order is the document's (the dispatcher sorts by specificity).
 */
export const ROUTE_TABLE: readonly RouteEntry[] = [
  ...authRoutes,
  ...profilesRoutes,
  ...invoicesRoutes,
  ...expensesRoutes,
  ...periodsRoutes,
  ...satRoutes,
  ...satMetadataRoutes,
  ...efirmaRoutes,
  ...satSyncRoutes,
  ...subscriptionRoutes,
  ...apiKeysRoutes,
  ...reportsRoutes,
  ...diotRoutes,
  ...supportRoutes,
  ...uploadRoutes,
  ...downloadRoutes,
  ...webhookRoutes,
  ...webhookEndpointsRoutes,
];

/**
 * The procedures that have no REST route, and why: a test fails when a procedure is in neither this
 * list nor the table.
 */
export const TRPC_ONLY = {
  'cfdi.import': 'REST takes the files themselves (POST /profiles/{profileId}/cfdi); tRPC sends XML text',
  'satMetadata.import':
    'REST takes the files themselves (POST /profiles/{profileId}/sat-metadata); tRPC sends the text',
  'efirma.store':
    'REST takes the files themselves (PUT /profiles/{profileId}/efirma); tRPC sends them in base64',
} as const;

/** Literal segments sort before `{param}` ones, so `/sat/search` is matched before `/sat/{id}`. */
const specificity = (path: string) =>
  path
    .split('/')
    .map((seg) => (seg.startsWith('{') ? '1' : '0'))
    .join('');

/** The order to match routes in: the most specific path first, whatever the table's order. */
export const byDispatchOrder = <R extends { path: string }>(routes: readonly R[]): R[] =>
  [...routes].sort(
    (a, b) => specificity(a.path).localeCompare(specificity(b.path)) || a.path.localeCompare(b.path),
  );
