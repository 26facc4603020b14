import type { AnyTRPCRouter } from '@trpc/server';
import { accessOf, type Meta, type RestMeta } from '../trpc';
import { shapeOf } from './schema-walk';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRoute {
  method: HttpMethod;
  /** OpenAPI-style path relative to /api, e.g. `/profiles/{profileId}`. */
  path: string;
  /** Dotted procedure path, e.g. `profiles.update`. */
  procedure: string;
  input: unknown;
  rest: RestMeta;
  /** Whether the route needs an access token (`openapi.protect`, default true). */
  protect: boolean;
  /** What the procedure does: a query reads, anything else writes (what a `read` API key may call). */
  access: 'read' | 'write';
  /** Refuses API keys (`meta.sessionOnly`): needs the user's own session. */
  sessionOnly: boolean;
}

/** Literal segments sort before `{param}` ones, so `/sat/search` is matched before `/sat/{id}`. */
const specificity = (path: string) =>
  path
    .split('/')
    .map((seg) => (seg.startsWith('{') ? '1' : '0'))
    .join('');

/** The REST route table, read from each procedure's `meta.openapi`. */
export function collectRoutes(router: AnyTRPCRouter): RestRoute[] {
  const routes: RestRoute[] = [];
  for (const [procedure, proc] of Object.entries(router._def.procedures as Record<string, any>)) {
    const meta = proc._def.meta as Meta | undefined;
    if (!meta?.openapi || meta.openapi.enabled === false) continue;
    routes.push({
      method: meta.openapi.method as HttpMethod,
      path: meta.openapi.path,
      procedure,
      input: proc._def.inputs?.[0],
      rest: meta.rest ?? {},
      protect: meta.openapi.protect !== false,
      access: accessOf(proc._def.type),
      sessionOnly: meta.sessionOnly === true,
    });
  }
  return routes.sort(
    (a, b) => specificity(a.path).localeCompare(specificity(b.path)) || a.path.localeCompare(b.path),
  );
}

/** The query parameters a route reads: its input's fields on GET and DELETE, none on a body method. */
export const queryParamsOf = (route: RestRoute): string[] =>
  route.method === 'GET' || route.method === 'DELETE' ? Object.keys(shapeOf(route.input)) : [];
