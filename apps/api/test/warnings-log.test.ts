// Node prints process warnings as plain text; the server's log is JSON lines (issue 27 §9: the first
// xlsx export's DEP0005 from archiver-utils, bundled by tsup, wrote a non-JSON line into it).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./support/warning-child.ts', import.meta.url));

describe('process warnings in the log', () => {
  it('DEP0005 and any other warning reach the log as JSON lines, and nothing else is printed', async () => {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    });
    expect(stderr).toBe('');
    const lines = stdout.trim().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, any>);
    expect(entries.map((e) => [e.level, e.warning?.code ?? e.warning?.name ?? e.msg])).toEqual([
      [20, 'DEP0005'], // pino's debug: a known dependency's, said once, not alarming
      [40, 'ExperimentalWarning'],
      [30, 'done'],
    ]);
  });
});
