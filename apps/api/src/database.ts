import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CatalogSource, ensureSatCatalog } from '@folio/api';
import { BUNDLED_SAT_CATALOG, type DbHandle, openDb } from '@folio/db';
import type { Env } from './env';
import type { AppLogger } from './logger';

// `pnpm start` runs in apps/api; relative paths mean the directory the command was typed in.
const base = process.env.INIT_CWD ?? process.cwd();
export const fromBase = (p: string) => (p === 'memory://' ? p : resolve(base, p));

/**
 * The configured database, migrated, with the SAT product catalog loaded: SAT_CATALOG_CSV unset, the
 * catalog shipped in packages/db/data (loaded on the first start); a file, that one (re-imported when
 * it changes); `starter`, the few dozen codes of the starter set (tests).
 */
export async function openServerDatabase(
  env: Env,
  log: AppLogger,
): Promise<{ db: DbHandle; catalog: CatalogSource }> {
  const db = await openDb({
    databaseUrl: env.DATABASE_URL,
    pgliteDataDir: fromBase(env.PGLITE_DATA_DIR),
    poolMax: env.DB_POOL_MAX,
  });
  log.info({ db: db.kind }, 'database ready (migrations applied)');
  const starterOnly = env.SAT_CATALOG_CSV === 'starter';
  const started = Date.now();
  const catalog = await ensureSatCatalog(
    db.db,
    env.SAT_CATALOG_CSV && !starterOnly ? fromBase(env.SAT_CATALOG_CSV) : undefined,
    starterOnly ? undefined : BUNDLED_SAT_CATALOG,
  );
  if (catalog.kind === 'starter') {
    log.warn(
      { rows: catalog.rows },
      'SAT product catalog: loaded the small starter set (SAT_CATALOG_CSV=starter). Unset it to load the full catalog',
    );
  } else {
    log.info({ ...catalog, ms: Date.now() - started }, 'SAT product catalog ready');
  }
  return { db, catalog };
}

/**
 * Whether this start creates the embedded database: PGlite (no DATABASE_URL) on a directory that
 * holds none yet. Its initdb, migrations and catalog import grow PGlite's WebAssembly memory and
 * V8's heap for good, so they run in `prepareInChild` (docs/design.md#start-up).
 */
export function createsPgliteDir(env: Env): boolean {
  const dir = fromBase(env.PGLITE_DATA_DIR);
  return !env.DATABASE_URL && dir !== 'memory://' && !existsSync(join(dir, 'PG_VERSION'));
}

/**
 * Runs first-start.ts (first-start.js in the bundle) in a node process of its own, with this one's
 * flags and environment and its output on ours; when it exits, everything it grew goes back to the
 * system. A SIGTERM or SIGINT meanwhile stops it and then this process.
 */
export async function prepareInChild(): Promise<void> {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(fromSource ? './first-start.ts' : './first-start.js', import.meta.url));
  // Under `--inspect` the child would ask for the debugger's port, which this process holds.
  const flags = process.execArgv.filter((a) => !a.startsWith('--inspect'));
  const child = spawn(process.execPath, [...flags, entry], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => {
    child.kill(signal);
    child.once('exit', () => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGTERM', forward);
  process.once('SIGINT', forward);
  try {
    await new Promise<void>((done, fail) => {
      child.once('error', fail);
      child.once('exit', (code, signal) =>
        code === 0 ? done() : fail(new Error(`first start in ${entry} exited with ${code ?? signal}`)),
      );
    });
  } finally {
    process.off('SIGTERM', forward);
    process.off('SIGINT', forward);
  }
}
