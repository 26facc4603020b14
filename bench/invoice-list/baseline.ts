// bench/invoice-list baseline: the least an invoice listing can cost on this stack. A bare Hono +
// postgres.js server (pool of 10, as the real one) running the very statements GET /api/invoices
// runs (rows and total in parallel), answering JSON; no auth, no tRPC, no validation, no mapping
// beyond naming the columns. Started by run.ts as a child process; env DATABASE_URL, PORT.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import postgres from 'postgres';
import { listQueries, ROW_COLUMNS } from './queries';

const sql = postgres(process.env.DATABASE_URL!, { max: 10, onnotice: () => {} });
const userId = process.env.BENCH_USER_ID!;

// The statements' text once; each request only supplies the values, in drizzle's parameter order.
const filtered = listQueries({ kind: 'filtered', userId, profileId: '$p', mes: 1, anio: 2000 });
const search = listQueries({ kind: 'search', userId, search: '$s' });
const order = JSON.stringify([filtered.rows.params, search.rows.params]);
if (
  order !==
  JSON.stringify([
    ['$p', 'income', 2000, 1, 50],
    [userId, 'income', '$s', 50],
  ])
)
  throw new Error(`listCfdis parameters changed order: ${order}`);

const app = new Hono();
app.get('/health', (c) => c.json({ status: 'ok' }));
app.get('/invoices', async (c) => {
  const q = c.req.query();
  const limit = 50;
  const [rowsSql, rowsParams, totalSql, totalParams] = q.search
    ? [search.rows.sql, [userId, 'income', q.search, limit], search.total.sql, [userId, 'income', q.search]]
    : [
        filtered.rows.sql,
        [q.profileId, 'income', Number(q.anio), Number(q.mes), limit],
        filtered.total.sql,
        [q.profileId, 'income', Number(q.anio), Number(q.mes)],
      ];
  const [rows, totals] = await Promise.all([
    sql.unsafe(rowsSql, rowsParams as never[]).values(),
    sql.unsafe(totalSql, totalParams as never[]).values(),
  ]);
  const total = Number(totals[0]?.[0] ?? 0);
  return c.json({
    data: rows.map((r) => Object.fromEntries(ROW_COLUMNS.map((k, i) => [k, r[i]]))),
    pagination: { total, page: 1, limit, totalPages: Math.ceil(total / limit) },
  });
});

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
const stop = () => server.close(() => void sql.end({ timeout: 2 }).then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
