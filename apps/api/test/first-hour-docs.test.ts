// Small first-hour items of issue 27 §9 that live in the repository rather than the API.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('what a clone shows a newcomer', () => {
  it("the README's development section documents the outbox as JSON (/__dev/mail.json?to=)", () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    const run = readme.slice(readme.indexOf('## Run it'), readme.indexOf('## Test it'));
    expect(run).toContain('/__dev/mail.json?to=');
  });

  it('a packed SDK tarball is git-ignored', () => {
    // check-ignore prints the path (exit 0) when ignored and fails (exit 1) when it would be tracked.
    const out = execFileSync('git', ['check-ignore', 'packages/sdk/folio-sdk-0.1.0.tgz'], { cwd: ROOT });
    expect(out.toString().trim()).toBe('packages/sdk/folio-sdk-0.1.0.tgz');
  });
});
