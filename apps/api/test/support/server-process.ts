/**
 * The real API as a child process (`node --import tsx src/main.ts`, one process, so a SIGKILL hits
 * the server itself and not a wrapper), on a port of its own, for tests that kill it or run several.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './own-postgres';

const API_DIR = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  url: string;
  port: number;
  proc: ChildProcess;
  /** The last lines it printed (for failure messages). */
  output(): string;
  /** Sends the signal and waits for the process to be gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * `env` adds to (or, with `undefined`, removes from) the defaults, among them the starter catalog
 * (SAT_CATALOG_CSV=starter): a fresh database does not import the full catalog unless a test asks.
 */
export async function startServer(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const port = await freePort();
  const merged: Record<string, string | undefined> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    AUTH_SECRET: 'two-processes-secret-0123456789abcdef0123',
    SAT_CATALOG_CSV: 'starter',
    ...env,
  };
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: API_DIR,
    env: Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-20_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  // Never outlive the test process, whatever happens to it.
  const orphanGuard = () => proc.kill('SIGKILL');
  process.once('exit', orphanGuard);
  const exited = new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) resolve();
    else proc.once('exit', () => resolve());
  }).then(() => {
    process.off('exit', orphanGuard);
  });
  const server: ServerProcess = {
    url: `http://127.0.0.1:${port}`,
    port,
    proc,
    output: () => out,
    kill: async (signal = 'SIGTERM') => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      // A graceful stop gets 15 s (main.ts forces its own exit after 10 s), then SIGKILL.
      const force = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(force);
    },
  };
  // Ready when /health answers 200 (migrations ran); bounded.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null)
      throw new Error(`server exited (${proc.exitCode ?? proc.signalCode}) before it was ready:\n${out}`);
    try {
      const res = await fetch(`${server.url}/health`);
      if (res.status === 200) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.kill('SIGKILL');
      throw new Error(`server not healthy within 90 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** JSON request to a running server; the body is serialised, the answer parsed when it is JSON. */
export async function call(
  server: { url: string },
  method: string,
  path: string,
  init: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers };
}
