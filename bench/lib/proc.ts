// CPU time of processes from /proc (Linux), so a benchmark can report CPU per request or per
// document: unlike latency, that hardly moves when other work shares the machine.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

let tick: number | undefined;
const msPerTick = () => {
  tick ??= 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);
  return tick;
};

/** Fields after the `(comm)` of /proc/<pid>/stat: [0] = state, [1] = ppid, [11] = utime, [12] = stime. */
function stat(pid: number): string[] | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** User + system CPU milliseconds the process has used so far (0 if it is gone or not on Linux). */
export function cpuMs(pid: number): number {
  const f = stat(pid);
  return f ? (Number(f[11]) + Number(f[12])) * msPerTick() : 0;
}

/**
 * CPU milliseconds of a PostgreSQL cluster: the postmaster (first line of <data>/postmaster.pid) and
 * its live children (backends, walwriter…). A backend that exits takes its CPU time with it, so
 * measure while the connection pools stay open.
 */
export function postgresCpuMs(dataDir: string | undefined): number {
  if (!dataDir || !existsSync(join(dataDir, 'postmaster.pid'))) return 0;
  const master = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let total = cpuMs(master);
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const f = stat(Number(d));
    if (f && Number(f[1]) === master) total += (Number(f[11]) + Number(f[12])) * msPerTick();
  }
  return total;
}
