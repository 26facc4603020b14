/** What the CLI touches outside itself, so tests can run it as a function with fakes. */
export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (on: boolean) => unknown };
  env: Record<string, string | undefined>;
  cwd: string;
  fetch?: typeof globalThis.fetch;
  /** Milliseconds, monotonic enough for rates and ETAs. */
  now(): number;
  /** Waits between polls (tests pass a short one); setTimeout when absent. */
  sleep?(ms: number): Promise<void>;
  /** Calls `handler` on Ctrl-C (SIGINT) instead of dying; returns the function that stops listening. */
  onInterrupt?(handler: () => void): () => void;
}

export function nodeIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    // `pnpm folio` runs from packages/sdk; FOLIO_CWD is where the command was typed.
    cwd: process.env.FOLIO_CWD || process.cwd(),
    now: () => performance.now(),
    onInterrupt(handler) {
      process.once('SIGINT', handler);
      return () => process.off('SIGINT', handler);
    },
  };
}

/** Exit codes: 0 fine, 1 something failed or was rejected, 2 the command line was wrong. */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** How wide a table may be: the terminal's width, else $COLUMNS; unlimited in a pipe without it. */
export const tableWidth = (io: Io): number | undefined =>
  io.stdout.columns || Number(io.env.COLUMNS) || undefined;

export class UsageError extends Error {}
/** A failure already explained to the user in plain words (no stack, exit 1). */
export class CliError extends Error {}
