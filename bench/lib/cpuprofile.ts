// Summary of a V8 CPU profile (node --cpu-prof): self time by package and by function.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };

/** Which package (or workspace folder) a script URL belongs to. */
function where(u: string): string {
  const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(u);
  if (m) return m[1]!;
  const w = /\/(packages|apps)\/([^/]+)\//.exec(u);
  if (w) return `${w[1]}/${w[2]}`;
  if (u.startsWith('node:')) return 'node internals';
  return u ? u.split('/').slice(-2).join('/') : '(native, GC, idle)';
}

/**
 * Prints the top entries of the largest .cpuprofile in `dir` (the main thread's: tsx's loader thread
 * writes a small one too); `idle` time is left out of the shares.
 */
export function printCpuProfile(dir: string, title: string, top = 20): void {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  if (!file) {
    console.log(`(no CPU profile in ${dir})`);
    return;
  }
  const prof = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const byPkg = new Map<string, number>();
  const byFn = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  prof.samples.forEach((id, i) => {
    const us = prof.timeDeltas[i] ?? 0;
    const n = byId.get(id)!;
    if (n.callFrame.functionName === '(idle)') {
      idle += us;
      return;
    }
    busy += us;
    const pkg = where(n.callFrame.url);
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
    const fn = `${n.callFrame.functionName || '(anonymous)'}  ${pkg}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
  });
  const list = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(
        ([name, us]) =>
          `  ${(us / 1e6).toFixed(2).padStart(7)} s ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${name}`,
      )
      .join('\n');
  console.log(
    `\n${title}: ${(busy / 1e6).toFixed(1)} s busy, ${(idle / 1e6).toFixed(1)} s idle (whole process life). Self time by package:`,
  );
  console.log(list(byPkg, 12));
  console.log('by function:');
  console.log(list(byFn, top));
}
