// bench/invoice-list baseline: the least an invoice listing can cost on this stack. A bare Hono +
// postgres.js server (pool of 10, as the real one) running the very statements GET /api/invoices
// runs (one statement: the page carries the total), prepared, answering JSON; no auth, no tRPC, no validation,
// no mapping beyond naming the columns. Started by run.ts as a child process; env DATABASE_URL, PORT.

import { listedTotal } from '@folio/db/queries/cfdis';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import postgres from 'postgres';
import { type ListFilter, listTemplates, listValues } from './queries';

const sql = postgres(process.env.DATABASE_URL!, { max: 10, onnotice: () => {} });
const userId = process.env.BENCH_USER_ID!;

const app = new Hono();
app.get('/health', (c) => c.json({ status: 'ok' }));
app.get('/invoices', async (c) => {
  const q = c.req.query();
  const limit = 50;
  const f: ListFilter = q.search
    ? { kind: 'search', userId, search: q.search }
    : { kind: 'filtered', userId, profileId: q.profileId!, mes: Number(q.mes), anio: Number(q.anio) };
  // The statements' text once per shape; each request only binds its values (by placeholder name).
  const t = listTemplates(f);
  // The page carries the total in its last column, as in listCfdis; prepared on each connection, as
  // drizzle's prepared statements are.
  const rows = await sql.unsafe(t.rows.sql, t.rows.bind(listValues(f)) as never[], { prepare: true });
  const { total, exact } = listedTotal(Number(Object.values(rows[0] ?? {}).at(-1) ?? 0), f.kind === 'search');
  return c.json({
    data: rows,
    pagination: { total, page: 1, limit, totalPages: Math.ceil(total / limit), totalExact: exact },
  });
});

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
const stop = () => server.close(() => void sql.end({ timeout: 2 }).then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
