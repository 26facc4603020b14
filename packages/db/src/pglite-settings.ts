import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * PostgreSQL settings of the embedded database, on top of PGlite's own start parameters. PGlite
 * touches all of `shared_buffers` at start and its WebAssembly memory never shrinks, so the 128 MB
 * default is 128 MB of RSS for good; the pages it would have cached stay in the OS page cache, read
 * back through the file system. `maintenance_work_mem` (64 MB by default) is what an index build
 * takes, a migration's on a large table included: a GIN index over 300,000 rows grew RSS 46 MB
 * more at 64 MB than at 16 (docs/benchmarks.md#memory, issue 30).
 */
export const PGLITE_SETTINGS = [
  'shared_buffers=16MB',
  'temp_buffers=4MB',
  'wal_buffers=1MB',
  'maintenance_work_mem=16MB',
];

/**
 * Creates an empty PGlite database in `dir` (initdb) in a child process when there is none yet.
 * PGlite runs initdb in a second WebAssembly instance of its own, which stays reachable after the
 * open: about 450 MB of RSS the server never used again. A worker thread was not enough (its malloc
 * arena kept ~160 MB); a process gives everything back when it exits.
 */
export async function initPgliteDir(dir: string): Promise<void> {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  const entry = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  const code = `const { PGlite } = await import(${JSON.stringify(entry)});
    await (await PGlite.create({ dataDir: ${JSON.stringify(dir)} })).close();`;
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, ['--input-type=module', '-e', code], (err, _out, stderr) =>
      err ? reject(new Error(`PGlite initdb in ${dir} failed: ${stderr || err.message}`)) : resolve(),
    ),
  );
}
