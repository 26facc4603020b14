import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb } from './client';
import { initPgliteDir } from './pglite-settings';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'folio-pglite-settings-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('the embedded database (docs/benchmarks.md#memory)', () => {
  it('runs with 16 MB of shared_buffers and of maintenance_work_mem, not the 128 and 64 MB defaults it would hold resident for good', async () => {
    const h = await openDb({ pgliteDataDir: join(tmp, 'db'), migrate: false });
    try {
      const show = async (name: string) =>
        (await h.pglite!.query<Record<string, string>>(`show ${name}`)).rows[0]![name];
      expect(await show('shared_buffers')).toBe('16MB');
      expect(await show('temp_buffers')).toBe('4MB');
      expect(await show('wal_buffers')).toBe('1MB');
      expect(await show('maintenance_work_mem')).toBe('16MB');
    } finally {
      await h.close();
    }
  });

  it('initialises an empty data directory in a child process, and leaves an existing one alone', async () => {
    const dir = join(tmp, 'db');
    await initPgliteDir(dir);
    expect(existsSync(join(dir, 'PG_VERSION'))).toBe(true);
    const h = await openDb({ pgliteDataDir: dir });
    await h.close();
    await initPgliteDir(dir); // already initialised: nothing to do, the data stays
    const again = await openDb({ pgliteDataDir: dir, migrate: false });
    try {
      const { rows } = await again.pglite!.query<{ n: number }>(
        "select count(*)::int as n from information_schema.tables where table_name = 'cfdis'",
      );
      expect(rows[0]!.n).toBe(1);
    } finally {
      await again.close();
    }
  });
});
