// Every command of README.md runs as written (issue 27): each fenced shell block is taken from the
// README (then docs/*.md) and either run, in the README's order and each in a fresh bash (a reader may copy any one
// block), against a started server, or skipped with the reason in its test name. Which blocks run is
// decided by one rule (apiOnly below), never by a list of blocks. Blocks run from a folder holding
// the repository's samples/, so the files they write (exports, cookies) land outside the clone.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServerDatabase, type ServerDatabase } from './support/server-database';
import { type ServerProcess, startServer } from './support/server-process';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

/** README.md first, then docs/*.md: a block in docs/ that uses only the API runs too. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

interface Block {
  /** Where it is: `README.md:LINE (## heading)`. */
  where: string;
  text: string;
}

/** The fenced sh/bash/shell blocks of a Markdown file, in order. */
function shellBlocks(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,6} /.test(line)) heading = line;
    if (!/^```(sh|bash|shell)\s*$/.test(line)) continue;
    const start = i + 1;
    while (i + 1 < lines.length && lines[i + 1] !== '```') i++;
    blocks.push({ where: `${file}:${start} (${heading})`, text: lines.slice(start, i + 1).join('\n') });
    i++;
  }
  return blocks;
}

/**
 * The block's shell text without comments, with every quoted string emptied (so a `;` or `|` in a
 * JSON body or a URL is not taken for shell syntax) and continuation lines joined.
 */
function code(text: string): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) {
        quote = null;
        out += 'Q';
      }
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (c === '\\' && text[i + 1] === '\n') i++;
    else out += c;
  }
  return out;
}

/** Commands that talk to the API or only read its JSON answers (`node -pe`/`-e` one-liners). */
const API_TOOLS = new Set(['curl', 'jq', 'echo', 'export']);

/**
 * The rule: a block runs when every command it starts is one of API_TOOLS, a JSON one-liner of
 * node, or a shell function the block itself defines. Otherwise the answer says which commands it
 * runs (pnpm, npm, the folio CLI, a browser opener…): those need the repository's tooling or a
 * person, not just a server.
 */
function apiOnly(text: string): { runs: true } | { runs: false; why: string } {
  const defined = new Set<string>();
  const others = new Set<string>();
  const body = code(text).replace(/^\s*(\w+)\(\)\s*\{/gm, (_, name: string) => {
    defined.add(name);
    return '';
  });
  for (const segment of body.split(/\$\(|&&|\|\||[;|\n{}()]/)) {
    const words = segment.trim().split(/\s+/);
    while (words[0] && /^\w+=/.test(words[0])) words.shift(); // VAR=value before the command
    const [command, flag] = words;
    if (!command) continue;
    if (API_TOOLS.has(command) || defined.has(command)) continue;
    if (command === 'node' && (flag === '-pe' || flag === '-e')) continue;
    others.add(command);
  }
  return others.size === 0 ? { runs: true } : { runs: false, why: `runs ${[...others].join(', ')}` };
}

/** The statuses a block says it expects to fail with: `# → 400` on the curl's own line. */
const expectedErrors = (text: string) => [...text.matchAll(/#\s*→\s*(\d{3})\b/g)].map((m) => Number(m[1]));

// Every curl reports its answer on stderr, after whatever the command prints itself.
const CURL_PROBE = `curl() { command curl -w '%{stderr}HTTP %{http_code} %{method} %{url_effective}\\n' "$@"; }`;

interface Ran {
  stdout: string;
  answers: { status: number; method: string; url: string }[];
}

let server: ServerProcess;
let database: ServerDatabase;
let dir: string;
const ran = new Map<string, Ran>();

beforeAll(async () => {
  database = await freshServerDatabase('readme');
  server = await startServer({ ...database.env });
  dir = mkdtempSync(join(tmpdir(), 'folio-readme-'));
  symlinkSync(join(ROOT, 'samples'), join(dir, 'samples'));
}, 120_000);
afterAll(async () => {
  await server?.kill();
  await database?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs one block as written, the README's server address swapped for the test server's. */
async function runBlock(block: Block): Promise<Ran> {
  const script = block.text.replaceAll('localhost:3000', `localhost:${server.port}`);
  const { stdout, stderr } = await run('bash', ['-c', `set -eo pipefail\n${CURL_PROBE}\n${script}`], {
    cwd: dir,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string; code?: number }) => {
    throw new Error(`${block.where} exited ${err.code}:\n${err.stderr}\n${err.stdout?.slice(-4000)}`);
  });
  const answers = [...stderr.matchAll(/^HTTP (\d{3}) (\S+) (\S+)$/gm)].map((m) => ({
    status: Number(m[1]),
    method: m[2]!,
    url: m[3]!,
  }));
  return { stdout, answers };
}

describe('README.md and docs/: every shell block that uses only the API runs as written, in order', () => {
  it('the server runs on the database the suite runs on', async () => {
    const health = await (await fetch(`${server.url}/health`)).json();
    expect(health.db).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });

  for (const block of DOCUMENTS.flatMap(shellBlocks)) {
    const verdict = apiOnly(block.text);
    if (!verdict.runs) {
      it.skip(`${block.where}: not run here, it ${verdict.why}`, () => {});
      continue;
    }
    it(`${block.where}: every command answers, and fails only where the README says so`, async () => {
      const result = await runBlock(block);
      ran.set(block.where, result);
      expect(result.answers.length).toBe((code(block.text).match(/\bcurl\b/g) ?? []).length);
      const failed = result.answers.filter((a) => a.status >= 400 || a.status === 0);
      expect(
        failed.map((a) => a.status),
        JSON.stringify(failed),
      ).toEqual(expectedErrors(block.text));
    }, 120_000);
  }
});

describe('what the walkthroughs show', () => {
  const all = () => [...ran.values()];
  const stdout = () =>
    all()
      .map((r) => r.stdout)
      .join('\n');
  const requests = () => all().flatMap((r) => r.answers.map((a) => `${a.method} ${new URL(a.url).pathname}`));

  it('the account block verifies the address from the outbox mail, so the REST walkthrough may upgrade', () => {
    expect(stdout()).toContain('"email_verified":true');
  });

  it('upgrades (the dev checkout paid) before it creates the API key, and the key does the rest', () => {
    const paths = requests();
    const paid = paths.findIndex((p) => /^POST \/__dev\/billing\/checkout\/.+\/complete$/.test(p));
    expect(paid).toBeGreaterThan(-1);
    expect(paths.indexOf('POST /api/api-keys')).toBeGreaterThan(paid);
    expect(stdout()).toContain('"plan":"PRO"');
  });

  it('files the upload on both sides, records the manual expense and writes the exports and the PDF', () => {
    expect(stdout()).toMatch(/"kind":"invoice","tipo":"PPD"/);
    expect(stdout()).toMatch(/"kind":"expense"/);
    expect(stdout()).toContain('Papelería');
    for (const file of ['facturas-LORM850312QK7-2026-08.xlsx', 'gastos-LORM850312QK7.csv'])
      expect(existsSync(join(dir, file)), file).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.pdf'))).toHaveLength(1);
    expect(requests()).toContain('GET /api/reports/monthly');
  });
});

describe('the rule that picks the blocks', () => {
  it('runs curl, jq and node JSON one-liners, and functions the block defines', () => {
    expect(apiOnly(`json() { node -pe "x.$1"; }\nK=$(curl -s a | json id) # pnpm here is a comment`)).toEqual(
      {
        runs: true,
      },
    );
  });

  it('skips pnpm, npm and the folio CLI, naming them; a quoted `; pnpm` is not a command', () => {
    expect(apiOnly('npm i -g pnpm@10 && pnpm install && pnpm start')).toEqual({
      runs: false,
      why: 'runs npm, pnpm',
    });
    expect(apiOnly('folio login --email a@b.c')).toEqual({ runs: false, why: 'runs folio' });
    expect(apiOnly(`curl -d '{"a":"; pnpm x"}' localhost`)).toEqual({ runs: true });
  });
});
