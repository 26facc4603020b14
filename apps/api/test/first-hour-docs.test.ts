// Small first-hour items of issue 27 §9 that live in the repository rather than the API.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-');

/** The Markdown files a newcomer reads: README.md, docs/*.md and the SDK's and samples' READMEs. */
const READ_FIRST = [
  'README.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'packages/sdk/README.md',
  'samples/cfdi/README.md',
];

describe('the README and docs/ point at what exists', () => {
  it.each(READ_FIRST)(
    '%s: every relative link names a file of the clone, and its #anchor a heading there',
    (file) => {
      const text = readFileSync(`${ROOT}${file}`, 'utf8').replace(/```[\s\S]*?```/g, '');
      const broken: string[] = [];
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!) || target!.startsWith('/')) continue; // URLs, the server's paths
        const [path, anchor] = target!.split('#');
        const resolved = path ? join(dirname(`${ROOT}${file}`), path) : `${ROOT}${file}`;
        if (!existsSync(resolved)) {
          broken.push(target!);
          continue;
        }
        if (!anchor || !resolved.endsWith('.md')) continue;
        const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
          anchorOf(m[1]!),
        );
        if (!headings.includes(anchor)) broken.push(target!);
      }
      expect(broken).toEqual([]);
    },
  );

  it('the README says which Node (20.19+, 24 recommended) as engines does, and the SDK notes: apiKey, ESM only, Node ≥ 20', () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    const engines = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')).engines.node;
    expect(engines).toBe('>=20.19');
    expect(readme).toMatch(/20\.19 or later; 24, the current LTS, recommended/);
    const ts = readme.slice(readme.indexOf('## Use it from TypeScript'));
    for (const note of ['`apiKey`', '**ESM only**', '**Node ≥ 20**']) expect(ts).toContain(note);
  });
});
