/**
 * An empty database for a server started by a test (server-process.ts): on PostgreSQL
 * (TEST_DATABASE_URL) a fresh database of that cluster, otherwise a fresh PGlite directory.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';

export interface ServerDatabase {
  /** What startServer() needs: DATABASE_URL or PGLITE_DATA_DIR. */
  env: Record<string, string>;
  /** Drops the database (or removes the directory); the server must be stopped first. */
  drop(): Promise<void>;
}

export async function freshServerDatabase(prefix: string): Promise<ServerDatabase> {
  const cluster = process.env.TEST_DATABASE_URL;
  if (!cluster) {
    const dir = mkdtempSync(join(tmpdir(), `folio-${prefix}-`));
    return {
      env: { PGLITE_DATA_DIR: join(dir, 'pglite') },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = postgres(cluster, { max: 1, onnotice: () => {} });
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(cluster);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}
