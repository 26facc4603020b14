// Child processes for benchmarks: the real Folio server (the apps/api bundle, as `pnpm start` runs
// it) or any other script, on a free port, stopped (and killed if need be) on exit.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';

const API_DIR = new URL('../../apps/api/', import.meta.url).pathname;
const BENCH_DIR = new URL('../', import.meta.url).pathname;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface Child {
  url: string;
  port: number;
  pid: number;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
  /** The last lines the process wrote (stdout and stderr), for error messages. */
  tail(): string;
}

const live = new Set<ChildProcess>();
let hooked = false;
function killAllOnExit() {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const p of live) p.kill('SIGKILL');
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      for (const p of live) p.kill('SIGKILL');
      process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
    });
  }
}

/**
 * Spawns `node <script>` in `cwd` (through tsx for a TypeScript script) and waits until
 * GET <url><readyPath> answers 200. SERVER_LOG names a file that keeps all it writes (a bench
 * prints only the last lines when the child fails, and a 500 under load needs its logged error).
 */
export async function startChild(opts: {
  script: string;
  cwd: string;
  env: Record<string, string | undefined>;
  readyPath: string;
  nodeArgs?: string[];
  timeoutMs?: number;
}): Promise<Child> {
  killAllOnExit();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const loader = opts.script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...loader, opts.script], {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(proc);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    if (process.env.SERVER_LOG) appendFileSync(process.env.SERVER_LOG, chunk);
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) =>
    proc.once('exit', () => {
      live.delete(proc);
      resolve();
    }),
  );
  const tail = () => lines.join('\n');
  const stop = async (graceMs = 10_000) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${opts.script} exited with ${proc.exitCode}:\n${tail()}`);
    try {
      const res = await fetch(url + opts.readyPath);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop(1000);
      throw new Error(`${opts.script} not ready after ${opts.timeoutMs ?? 90_000} ms:\n${tail()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, port, pid: proc.pid!, stop, tail };
}

let built = false;

/** The node flags and script of `pnpm start` (apps/api's start script, after its build step). */
function startCommand(): { nodeArgs: string[]; script: string } {
  const pkg = JSON.parse(readFileSync(join(API_DIR, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const args = pkg.scripts.start.split('&&').at(-1)!.trim().split(/\s+/).slice(1); // after `node`
  return { nodeArgs: args.slice(0, -1), script: args.at(-1)! };
}

/**
 * The real server as `pnpm start` runs it (the bundle, built once per benchmark run, with the
 * start script's node flags, then SERVER_NODE_FLAGS' to try one without editing the script), with
 * LOG_LEVEL=warn unless given.
 */
export function startFolio(env: Record<string, string | undefined>, nodeArgs: string[] = []): Promise<Child> {
  if (!built) {
    execFileSync('pnpm', ['run', 'build'], { cwd: API_DIR, stdio: 'inherit' });
    built = true;
  }
  const start = startCommand();
  return startChild({
    script: start.script,
    cwd: API_DIR,
    env: { LOG_LEVEL: 'warn', NODE_ENV: 'development', ...env },
    readyPath: '/health',
    nodeArgs: [
      ...start.nodeArgs,
      ...(process.env.SERVER_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
      ...nodeArgs,
    ],
  });
}

/** Node flags that make a server answer `memoryPeaks` (preloads lib/memory-peaks.mjs). */
export const MEMORY_PEAKS = ['--import', join(BENCH_DIR, 'lib/memory-peaks.mjs')];

export interface Memory {
  rss: number;
  /** The main thread's V8 heap as reserved (what RSS holds of it), used or not. */
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}
const asked = new WeakMap<Child, number>();

/** What `memoryPeaks` answers, in MB; `spaces`: each V8 heap space's peak size (new, old, code…). */
export interface MemoryPeaks {
  now: Memory;
  peak: Memory;
  spaces: Record<string, number>;
  /** The event loop's delay (ms) since the previous call: its p99 and its longest. */
  loopDelayMs: { p99: number; max: number };
}

/**
 * A server's process.memoryUsage() in MB now and its peaks since the previous call (or its start),
 * sampled every 20 ms inside it: the server must run with MEMORY_PEAKS among its node flags.
 */
export async function memoryPeaks(child: Child): Promise<MemoryPeaks> {
  const n = (asked.get(child) ?? 0) + 1;
  asked.set(child, n);
  process.kill(child.pid, 'SIGUSR2');
  const line = new RegExp(`^memory-peaks ${n} (.*)$`, 'm');
  for (let waited = 0; waited < 5_000; waited += 10) {
    const found = line.exec(child.tail());
    if (found) return JSON.parse(found[1]!) as MemoryPeaks;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no memory-peaks ${n} from the server:\n${child.tail()}`);
}

/** Node flags that make a server answer `cpuWindow` (preloads lib/cpu-window.mjs; env CPU_WINDOW_DIR). */
export const CPU_WINDOW = ['--import', join(BENCH_DIR, 'lib/cpu-window.mjs')];

/** Waits until the server's output has a line matching `line`, and answers its match. */
async function awaitLine(child: Child, line: RegExp, what: string): Promise<RegExpExecArray> {
  for (let waited = 0; waited < 10_000; waited += 10) {
    const found = line.exec(child.tail());
    if (found) return found;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no ${what} from the server:\n${child.tail()}`);
}

const windows = new WeakMap<Child, number>();
/**
 * Profiles a server's CPU while `run` runs (the server must run with CPU_WINDOW among its node flags)
 * and answers the .cpuprofile written, with the longest the event loop was held over the window: in
 * wall time and in the process's CPU time (ms; lib/cpu-window.mjs).
 */
export async function cpuWindow(
  child: Child,
  run: () => Promise<void>,
): Promise<{ file: string; loopBlock: { wallMs: number; cpuMs: number } }> {
  const n = (windows.get(child) ?? 0) + 1;
  windows.set(child, n);
  process.kill(child.pid, 'SIGUSR2');
  await awaitLine(child, new RegExp(`^cpu-window started ${n}$`, 'm'), 'cpu-window start');
  await run();
  process.kill(child.pid, 'SIGUSR2');
  const file = (await awaitLine(child, new RegExp(`^cpu-window ${n} (.*)$`, 'm'), 'cpu profile'))[1]!;
  const loop = await awaitLine(
    child,
    new RegExp(`^cpu-window-loop ${n} (\\S+) (\\S+)$`, 'm'),
    'event-loop block',
  );
  return { file, loopBlock: { wallMs: Number(loop[1]), cpuMs: Number(loop[2]) } };
}

/** A script under bench/ (path relative to bench/). */
export function startBenchScript(script: string, env: Record<string, string | undefined>): Promise<Child> {
  return startChild({ script, cwd: BENCH_DIR, env, readyPath: '/health' });
}

/** JSON request; throws with the body unless the status is the expected one. */
export async function api<T = unknown>(
  base: string,
  method: string,
  path: string,
  init: { token?: string; body?: unknown; ip?: string; expect?: number } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.ip) headers['x-forwarded-for'] = init.ip;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (res.status !== (init.expect ?? res.status) || res.status >= 400)
    throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

const BENCH_PASSWORD = 'bench password 1';

/**
 * Logs `email` in, registering it first unless an earlier run did (`registered`). `ip` is the
 * client address the server sees: its rate limits count by address, so each bench sends its own.
 */
export async function signIn(
  base: string,
  email: string,
  ip: string,
  opts: { registered?: boolean } = {},
): Promise<{ token: string; userId: string }> {
  const body = { email, password: BENCH_PASSWORD };
  if (!opts.registered) await api(base, 'POST', '/api/auth/register', { body, ip });
  const { accessToken, user } = await api<{ accessToken: string; user: { id: string } }>(
    base,
    'POST',
    '/api/auth/login',
    { body, ip },
  );
  return { token: accessToken, userId: user.id };
}

/**
 * A raw request over node:http with no client-side timeout (fetch gives up on headers after 300 s,
 * and a slow import may take longer than that).
 */
export function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers: { ...headers, 'content-length': String(body.byteLength) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(0);
    req.on('error', reject);
    req.end(body);
  });
}
