import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { Db } from './db-types';
import { acquireDirLock } from './lock';
import { initPgliteDir, PGLITE_SETTINGS } from './pglite-settings';
import * as schema from './schema';
import { seedReferenceData } from './seed';
import { preparingTransactions } from './transaction-statements';

// The handle types live in a leaf (db-types.ts) so that seeding and queries can name them without a
// circle through this file, which seeds on open.
export type { Db, Executor, Tx } from './db-types';
export type DbKind = 'pglite' | 'postgres';

export interface DbHandle {
  db: Db;
  kind: DbKind;
  /** Cheap round-trip used by /health. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The embedded instance, when kind is pglite (tests dump it as a template). */
  pglite?: PGlite;
  /** The server's URL, when kind is postgres (the job queue opens its own pool on it). */
  databaseUrl?: string;
}

export interface OpenDbOptions {
  /** postgres:// URL; when set, PostgreSQL through postgres.js is used instead of PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; `memory://` (or unset) keeps the database in memory. */
  pgliteDataDir?: string;
  /** A PGlite dump (from `dumpDataDir`) to start from; used by tests to skip migrations. */
  pgliteLoadDataDir?: Blob;
  /** Connections in the postgres.js pool. */
  poolMax?: number;
  /** Skip migrations and seeding (the loaded dump already has them). */
  migrate?: boolean;
  /** Sees every statement the handle's `db` runs (tests count the work a request does). */
  logQuery?: (query: string, params: unknown[]) => void;
}

const loggerOf = (opts: OpenDbOptions) => (opts.logQuery ? { logQuery: opts.logQuery } : undefined);

/** Found through the package, not this file, so it also holds in the server's bundle (apps/api/dist). */
export const migrationsFolder = dirname(
  dirname(createRequire(import.meta.url).resolve('@folio/db/drizzle/meta/_journal.json')),
);
/** pg_advisory_lock key that serialises migrations across processes (any constant of our own). */
const MIGRATION_LOCK = 0x466f6c696f;

export async function openDb(opts: OpenDbOptions = {}): Promise<DbHandle> {
  const handle = opts.databaseUrl
    ? await openPostgres(opts.databaseUrl, opts.poolMax ?? 10, opts)
    : await openPglite(opts);
  if (opts.migrate !== false) {
    try {
      await seedReferenceData(handle.db);
    } catch (err) {
      await handle.close();
      throw err;
    }
  }
  return handle;
}

async function openPostgres(url: string, max: number, opts: OpenDbOptions): Promise<DbHandle> {
  const postgres = (await import('postgres')).default;
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  // Migrate on a single connection holding an advisory lock: processes starting together (several
  // replicas, a rolling deploy) apply each migration once instead of racing on CREATE EXTENSION/TABLE.
  if (opts.migrate !== false) {
    const once = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await once`select pg_advisory_lock(${MIGRATION_LOCK})`;
      await migrate(drizzle(once), { migrationsFolder });
    } finally {
      await once.end();
    }
  }
  // After an outage postgres.js waits up to 20 s (3^n/100 s) between connection attempts, so a
  // restarted PostgreSQL went unused that long; retry within 2 s instead (jittered).
  const backoff = (retries: number) => Math.min(2, 0.1 * 2 ** retries) * (0.5 + Math.random() / 2);
  // JIT off for every statement: Folio's are short, and where the planner's estimate passes the JIT
  // thresholds (a report over a year of rows) compiling the plan took seconds, more than running it.
  const pool = postgres(url, {
    max,
    onnotice: () => {},
    connect_timeout: 10,
    backoff,
    connection: { jit: 'off' },
  });
  const db = drizzle(preparingTransactions(pool), { schema, logger: loggerOf(opts) }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    databaseUrl: url,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end({ timeout: 5 }),
  };
}

async function openPglite(opts: OpenDbOptions): Promise<DbHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { btree_gin } = await import('@electric-sql/pglite/contrib/btree_gin');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { unaccent } = await import('@electric-sql/pglite/contrib/unaccent');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dir = opts.pgliteDataDir && opts.pgliteDataDir !== 'memory://' ? opts.pgliteDataDir : undefined;
  // PGlite has no cross-process lock and two processes on one directory corrupt it.
  const release = dir ? acquireDirLock(dir) : () => {};
  let pg: PGlite;
  try {
    if (dir && !opts.pgliteLoadDataDir) await initPgliteDir(dir);
    pg = await PGlite.create({
      dataDir: dir,
      loadDataDir: opts.pgliteLoadDataDir,
      extensions: { btree_gin, pg_trgm, unaccent },
      startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])],
    });
  } catch (err) {
    release();
    throw err;
  }
  const db = drizzle(pg, { schema, logger: loggerOf(opts) }) as unknown as Db;
  const close = async () => {
    try {
      if (!pg.closed) await pg.close();
    } finally {
      release();
    }
  };
  if (opts.migrate !== false) {
    try {
      await migrate(drizzle(pg), { migrationsFolder });
    } catch (err) {
      await close();
      throw err;
    }
  }
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await pg.query('select 1');
    },
    close,
    pglite: pg,
  };
}

/** Raw `execute` results differ by driver: PGlite gives `{rows}`, postgres.js an array. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
