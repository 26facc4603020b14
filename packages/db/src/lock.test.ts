import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DbHandle, openDb, rowsOf } from './client';
import { acquireDirLock, DataDirLockedError } from './lock';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'folio-lock-test-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const lockFileOf = (dir: string) => `${resolve(dir)}.lock`;

/** The PID of a process that has run and exited (and been reaped), so nothing owns it now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  expect(child.status).toBe(0);
  expect(child.pid).toBeGreaterThan(0);
  return child.pid!;
}

/** Captures what `fn` throws (failing the test when it does not throw). */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('acquireDirLock', () => {
  it('writes <dir>.lock holding this process PID', () => {
    const dir = join(tmp, 'data');
    const release = acquireDirLock(dir);
    expect(readFileSync(lockFileOf(dir), 'utf8')).toBe(String(process.pid));
    release();
  });

  it('refuses a second acquire while held, with a DataDirLockedError naming the dir and the PID', () => {
    const dir = join(tmp, 'data');
    const release = acquireDirLock(dir);
    try {
      const err = thrownBy(() => acquireDirLock(dir));
      expect(err).toBeInstanceOf(DataDirLockedError);
      expect((err as Error).name).toBe('DataDirLockedError');
      expect((err as Error).message).toContain(dir);
      expect((err as Error).message).toContain(`process ${process.pid}`);
      // The refused attempt must leave the holder's lock in place.
      expect(readFileSync(lockFileOf(dir), 'utf8')).toBe(String(process.pid));
    } finally {
      release();
    }
  });

  describe('with a lock held by another live process', () => {
    let child: ChildProcess;
    beforeEach(() => {
      child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    });
    afterEach(() => {
      child.kill('SIGKILL');
    });

    it('refuses, naming that process PID, and leaves its lock file alone', () => {
      const dir = join(tmp, 'data');
      writeFileSync(lockFileOf(dir), String(child.pid));
      const err = thrownBy(() => acquireDirLock(dir));
      expect(err).toBeInstanceOf(DataDirLockedError);
      expect((err as Error).message).toContain(dir);
      expect((err as Error).message).toContain(`process ${child.pid}`);
      expect(readFileSync(lockFileOf(dir), 'utf8')).toBe(String(child.pid));
    });
  });

  it('replaces a stale lock whose PID belongs to an exited process', () => {
    const dir = join(tmp, 'data');
    const pid = deadPid();
    writeFileSync(lockFileOf(dir), String(pid));
    const release = acquireDirLock(dir);
    expect(readFileSync(lockFileOf(dir), 'utf8')).toBe(String(process.pid));
    release();
  });

  it('replaces a stale lock file that holds no PID (owner died before writing it)', () => {
    const dir = join(tmp, 'data');
    writeFileSync(lockFileOf(dir), '');
    const release = acquireDirLock(dir);
    expect(readFileSync(lockFileOf(dir), 'utf8')).toBe(String(process.pid));
    release();
  });

  it('release removes the lock file and allows a re-acquire; releasing twice is harmless', () => {
    const dir = join(tmp, 'data');
    const release = acquireDirLock(dir);
    release();
    expect(existsSync(lockFileOf(dir))).toBe(false);
    const again = acquireDirLock(dir);
    expect(readFileSync(lockFileOf(dir), 'utf8')).toBe(String(process.pid));
    // A late second call of the first release must not drop the lock now held by `again`.
    release();
    expect(existsSync(lockFileOf(dir))).toBe(true);
    again();
    expect(existsSync(lockFileOf(dir))).toBe(false);
  });

  it('creates missing parent directories of the lock file', () => {
    const dir = join(tmp, 'a', 'b', 'data');
    const release = acquireDirLock(dir);
    expect(existsSync(lockFileOf(dir))).toBe(true);
    release();
  });
});

describe('openDb with a PGlite data directory', () => {
  const handles: DbHandle[] = [];
  afterEach(async () => {
    for (const h of handles.splice(0)) await h.close();
  });

  it('lets only one handle open the directory at a time, and data persists across handles', async () => {
    const dataDir = join(tmp, 'pgdata');
    const first = await openDb({ pgliteDataDir: dataDir });
    handles.push(first);
    expect(first.kind).toBe('pglite');
    expect(readFileSync(lockFileOf(dataDir), 'utf8')).toBe(String(process.pid));

    const second = openDb({ pgliteDataDir: dataDir });
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(dataDir);
    // The refused open did not release the first handle's lock.
    expect(existsSync(lockFileOf(dataDir))).toBe(true);

    await first.db.execute(
      sql`insert into rate_limits (key, points, expires_at) values ('persisted', 7, now() + interval '1 day')`,
    );
    await handles.pop()!.close();
    expect(existsSync(lockFileOf(dataDir))).toBe(false);

    const reopened = await openDb({ pgliteDataDir: dataDir });
    handles.push(reopened);
    const rows = rowsOf<{ points: number }>(
      await reopened.db.execute(sql`select points from rate_limits where key = 'persisted'`),
    );
    expect(rows).toEqual([{ points: 7 }]);
  }, 180_000);
});
