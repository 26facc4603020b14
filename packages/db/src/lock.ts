import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `PGlite data directory ${dir} is in use by process ${pid}. Stop that process, or set ` +
        'PGLITE_DATA_DIR to another directory (memory:// for a throwaway database).',
    );
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes `<dir>.lock` (PID inside), replacing a stale one; returns the release function. */
export function acquireDirLock(dir: string): () => void {
  const path = `${resolve(dir)}.lock`;
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(path);
        } catch {}
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isFinite(pid) && isAlive(pid)) throw new DataDirLockedError(dir, pid);
      unlinkSync(path); // stale: its owner is gone
    }
  }
  throw new Error(`could not lock ${path}`);
}
