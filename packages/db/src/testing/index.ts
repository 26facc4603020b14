import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { type DbHandle, type OpenDbOptions, openDb } from '../client';
import { seedStarterCatalog } from '../seed/starter-catalog';

export { STARTER_PRODUCTS } from '../seed/starter-products';
export { copyCfdi } from './copy-cfdis';
export { ensurePgliteTemplate } from './template';

/**
 * A fresh, migrated and seeded database for one test file: on the PostgreSQL at TEST_DATABASE_URL
 * when set (a throwaway database, dropped on close), otherwise an in-memory PGlite restored from
 * the template built by the global setup.
 */
export async function openTestDb(
  templatePath?: string,
  opts: Pick<OpenDbOptions, 'logQuery'> = {},
): Promise<DbHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) return openServerTestDb(serverUrl, opts);
  if (!templatePath) throw new Error('openTestDb: no PGlite template (is the global setup configured?)');
  const tar = await readFile(templatePath);
  return openDb({ pgliteLoadDataDir: new Blob([new Uint8Array(tar)]), migrate: false, ...opts });
}

async function openServerTestDb(serverUrl: string, opts: Pick<OpenDbOptions, 'logQuery'>): Promise<DbHandle> {
  const postgres = (await import('postgres')).default;
  const name = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDb({ databaseUrl: url.toString(), poolMax: 10, ...opts });
  await seedStarterCatalog(handle.db);
  // Once: a second close (a test that closed its database to make it fail, then its afterAll) would
  // ask the ended admin connection to drop the database again.
  let closed: Promise<void> | undefined;
  const close = async () => {
    await handle.close();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  };
  return { ...handle, close: () => (closed ??= close()) };
}
