// Summary of a V8 CPU profile (node --cpu-prof): self time by package and by function.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};

const bundles = new Map<string, { line: number; source: string }[]>();
/**
 * The source a line of an esbuild bundle (apps/api/dist/main.js) came from: esbuild heads each
 * module's code with a `// path/of/the/module.js` comment line; undefined for any other script.
 */
function bundledSource(u: string, line: number): string | undefined {
  if (!u.startsWith('file:') || !/\/dist\/[^/]+\.js$/.test(u)) return undefined;
  let marks = bundles.get(u);
  if (!marks) {
    marks = [];
    const lines = readFileSync(fileURLToPath(u), 'utf8').split('\n');
    lines.forEach((l, i) => {
      if (/^\/\/ \S+\.[cm]?[jt]sx?$/.test(l)) marks!.push({ line: i, source: l.slice(3) });
    });
    bundles.set(u, marks);
  }
  let found: string | undefined;
  for (const m of marks) {
    if (m.line > line) break;
    found = m.source;
  }
  return found;
}

/** Which package (or workspace folder) a script URL belongs to (in a bundle, the module's). */
function where(u: string, line = 0): string {
  const bundled = bundledSource(u, line);
  if (bundled) return where(bundled);
  const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(u);
  if (m) return m[1]!;
  const w = /\/(packages|apps)\/([^/]+)\//.exec(u);
  if (w) return `${w[1]}/${w[2]}`;
  if (u.startsWith('node:')) return 'node internals';
  return u ? u.split('/').slice(-2).join('/') : '(native, GC, idle)';
}

/**
 * Prints the top entries of a .cpuprofile: `path` itself, or the largest one in the directory `path`
 * (the main thread's: tsx's loader thread writes a small one too); `idle` time is left out of the shares.
 */
export function printCpuProfile(
  path: string,
  title: string,
  top = 20,
  span = 'whole process life',
): { busyUs: number } | undefined {
  const file = path.endsWith('.cpuprofile')
    ? path
    : readdirSync(path)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(path, f))
        .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (!file) {
    console.log(`(no CPU profile in ${path})`);
    return undefined;
  }
  const prof = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, ProfileNode>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n);
  /** The nearest frame with a script (a native function's JS caller: who wrote to the socket). */
  const scripted = (n: ProfileNode): ProfileNode | undefined => {
    let at: ProfileNode | undefined = n;
    while (at && !at.callFrame.url) at = parent.get(at.id);
    return at;
  };
  const label = (n: ProfileNode) => {
    const src = bundledSource(n.callFrame.url, n.callFrame.lineNumber);
    const file = src ? src.split('/').slice(-2).join('/') : n.callFrame.url.split('/').slice(-2).join('/');
    return `${n.callFrame.functionName || '(anonymous)'}  ${where(n.callFrame.url, n.callFrame.lineNumber)}${n.callFrame.url ? ` ${file}:${n.callFrame.lineNumber + 1}` : ''}`;
  };
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
    // The profiler's own stop (an in-process session serialising the profile) is not the program's.
    if (scripted(n)?.callFrame.url === 'node:inspector') return;
    busy += us;
    // Native time (socket writes, GC of what JS allocated…) goes to the package of its JS caller.
    const caller = scripted(n);
    const pkg = caller ? where(caller.callFrame.url, caller.callFrame.lineNumber) : '(native, GC, idle)';
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
    const fn = caller && caller !== n ? `${label(n)} ← ${label(caller)}` : label(n);
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
    `\n${title}: ${(busy / 1e6).toFixed(1)} s busy, ${(idle / 1e6).toFixed(1)} s idle (${span}). Self time by package (a native function's, its JS caller's):`,
  );
  console.log(list(byPkg, 12));
  console.log('by function:');
  console.log(list(byFn, top));
  return { busyUs: busy };
}

/**
 * For an in-process benchmark: when CPU_PROF names a directory, profiles `run` with the inspector
 * (as `node --cpu-prof` would the whole process), writes the profile there and prints its summary.
 */
export async function withCpuProfile<T>(title: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.CPU_PROF;
  if (!dir) return run();
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${title.replace(/\W+/g, '-').toLowerCase()}-${process.pid}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    printCpuProfile(file, `${title} CPU profile`);
  }
}
