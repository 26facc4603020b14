import type { AnyTRPCProcedure, AnyTRPCRouter } from '@trpc/server';
import { appRouter } from '../root';
import { accessOf, type Meta } from '../trpc';
import type { ProcedureName } from './procedure-name';
import { ROUTE_TABLE } from './route-table';
import { shapeOf } from './schema-walk';
import { type HttpMethod, isProcedureEntry, type RestOptions, type RouteEntry } from './table/entry';

/** A table entry with what its procedure says of itself: what the pipeline and the tests read. */
export interface RestRoute<N extends string = ProcedureName> {
  method: HttpMethod;
  path: string;
  entry: RouteEntry<N>;
  /** The procedure it runs, for a procedure entry. */
  procedure?: N;
  /** The procedure's input schema, or a file route's documented query. */
  input: unknown;
  /** The entry's options, with the quota its procedure declares. */
  rest: RestOptions;
  /** Whether the route needs an access token. */
  protect: boolean;
  /** What the route does: a query (or a file GET) reads, anything else writes (what a `read` API key may call). */
  access: 'read' | 'write';
  /** Refuses API keys (the procedure's `meta.sessionOnly`): needs the user's own session. */
  sessionOnly: boolean;
  /** The query parameters it reads; any other is refused. */
  queryParams: string[];
}

/** A procedure of `router` by its dotted name (tRPC keeps them in one flat record). */
export function procedureOf<N extends string>(router: AnyTRPCRouter, name: N): AnyTRPCProcedure {
  const procedure = (router._def.procedures as Record<string, AnyTRPCProcedure | undefined>)[name];
  if (!procedure) throw new Error(`the route table names ${name}, which the router does not have`);
  return procedure;
}

/** Each entry of `table` with its procedure's input, access and session rule, in the table's order. */
export function resolveRoutes<N extends string>(
  router: AnyTRPCRouter,
  table: readonly RouteEntry<N>[],
): RestRoute<N>[] {
  return table.map((entry) => {
    const protect = entry.protect !== false;
    if (!isProcedureEntry(entry)) {
      const query = (entry.docs.requestParams as { query?: unknown } | undefined)?.query;
      return {
        method: entry.method,
        path: entry.path,
        entry,
        input: query,
        rest: entry.rest ?? {},
        protect,
        access: entry.method === 'GET' ? 'read' : 'write',
        sessionOnly: entry.sessionOnly === true,
        queryParams: Object.keys(shapeOf(query)),
      };
    }
    const def = procedureOf(router, entry.procedure)._def;
    const meta = (def.meta ?? {}) as Meta;
    const input = def.inputs[0];
    return {
      method: entry.method,
      path: entry.path,
      entry,
      procedure: entry.procedure,
      input,
      rest: { ...entry.rest, ...(meta.quota ? { quota: true } : {}) },
      protect,
      access: accessOf(def.type),
      sessionOnly: meta.sessionOnly === true,
      // A GET or DELETE reads its input from the query; a body method from the body.
      queryParams: entry.method === 'GET' || entry.method === 'DELETE' ? Object.keys(shapeOf(input)) : [],
    };
  });
}

/** The app's REST routes: ROUTE_TABLE over the app router. */
export const restRoutes = (): RestRoute[] => resolveRoutes(appRouter, ROUTE_TABLE);
