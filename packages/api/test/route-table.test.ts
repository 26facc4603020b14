import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi';
import { ROUTE_TABLE, TRPC_ONLY } from '../src/rest/route-table';
import { procedureOf, restRoutes } from '../src/rest/routes';
import { FILE_HANDLERS, isProcedureEntry } from '../src/rest/table/entry';
import { appRouter } from '../src/root';

const procedures = Object.keys(appRouter._def.procedures);
const procedureEntries = ROUTE_TABLE.filter(isProcedureEntry);
const fileEntries = ROUTE_TABLE.flatMap((e) => (isProcedureEntry(e) ? [] : [e]));
const key = (e: { method: string; path: string }) => `${e.method.toLowerCase()} ${e.path}`;

describe('the route table is the one list of REST operations', () => {
  it('serves each procedure by exactly one entry, or lists it as tRPC-only with a reason', () => {
    for (const name of procedures) {
      const served = procedureEntries.filter((e) => e.procedure === name).length;
      const trpcOnly = name in TRPC_ONLY;
      expect(
        served + (trpcOnly ? 1 : 0),
        `${name}: ${served} entries${trpcOnly ? ' and tRPC-only' : ''}`,
      ).toBe(1);
    }
  });

  it('names only real procedures, in its entries and in the tRPC-only list', () => {
    for (const entry of procedureEntries) expect(() => procedureOf(appRouter, entry.procedure)).not.toThrow();
    for (const name of Object.keys(TRPC_ONLY)) expect(procedures).toContain(name);
  });

  it('names a known file handler for every file entry and every report format', () => {
    const named = [
      ...fileEntries.map((e) => e.handler),
      ...procedureEntries.flatMap((e) => (e.files ? [e.files.handler] : [])),
    ];
    for (const handler of named) expect(FILE_HANDLERS).toContain(handler);
    // No handler is declared without a route that uses it.
    expect([...new Set(named)].sort()).toEqual([...FILE_HANDLERS].sort());
  });

  it('has one entry per method and path', () => {
    const keys = ROUTE_TABLE.map(key);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('takes the quota from the procedure, which tRPC reads too (declared once, typed so)', () => {
    // The search spends the SAT search quota on both transports; its entry does not say so.
    expect(restRoutes().find((r) => r.procedure === 'sat.search')?.rest.quota).toBe(true);
    expect(restRoutes().find((r) => r.procedure === 'sat.byId')?.rest.quota).toBeUndefined();
  });
});

describe('every route of the OpenAPI document comes from the table', () => {
  const doc = buildOpenApiDocument({ version: '0.0.0', serverUrl: 'http://localhost/api' });
  const documented = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item ?? {})
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map((m) => `${m} ${path}`),
  );

  it('documents each public entry, and nothing else', () => {
    const expected = ROUTE_TABLE.filter((e) => isProcedureEntry(e) || !e.internal).map(key);
    expect([...documented].sort()).toEqual([...expected].sort());
  });

  it('leaves out the internal entries (the payment provider’s webhook)', () => {
    expect(documented).not.toContain('post /webhooks/stripe');
    expect(ROUTE_TABLE.map(key)).toContain('post /webhooks/stripe');
  });

  it('describes each procedure entry with its own summary and error statuses', () => {
    for (const entry of procedureEntries) {
      const item = doc.paths?.[entry.path] as Record<string, { summary?: string; responses: object }>;
      const op = item?.[entry.method.toLowerCase()];
      expect(op?.summary, key(entry)).toBe(entry.docs.summary);
      for (const status of entry.errors) expect(Object.keys(op!.responses)).toContain(String(status));
    }
  });
});
