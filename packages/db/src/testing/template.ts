import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrationsFolder, openDb } from '../client';
import { seedStarterCatalog } from '../seed/starter-catalog';

/** Identifies the schema a template was built from: any migration change makes a new one. */
function migrationsHash(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    if (f.endsWith('.sql') || f.endsWith('.json'))
      h.update(f).update(readFileSync(join(migrationsFolder, f)));
  }
  return h.digest('hex').slice(0, 16);
}

/**
 * A migrated, seeded PGlite dump on disk (built once per schema version and reused across runs), so
 * each test file starts a fresh database in about a second instead of migrating for several.
 */
export async function ensurePgliteTemplate(): Promise<string> {
  const path = join(tmpdir(), `folio-pglite-template-${migrationsHash()}.tar.gz`);
  if (existsSync(path)) return path;
  const handle = await openDb({});
  try {
    await seedStarterCatalog(handle.db);
    const dump = await handle.pglite!.dumpDataDir('gzip');
    const partial = `${path}.${process.pid}.tmp`;
    writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
    renameSync(partial, path); // atomic: a concurrent builder never sees half a file
  } finally {
    await handle.close();
  }
  return path;
}
