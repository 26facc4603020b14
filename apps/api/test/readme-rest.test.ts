// The README's REST walkthrough ("Use it over REST") runs as written against a started server: its
// shell block is taken from README.md and run by bash, from a folder holding the repository's
// samples/cfdi, after the account steps of "Run it" (register and verify ana@example.com).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, type ServerProcess, startServer } from './support/server-process';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

/** The first ```sh block after `heading` in README.md. */
function shellBlock(heading: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(`\n${heading}\n`));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error(`no sh block under ${heading}`);
  return block;
}

let server: ServerProcess;
let dir: string;
beforeAll(async () => {
  server = await startServer({ PGLITE_DATA_DIR: 'memory://', LOG_LEVEL: 'info' });
  dir = mkdtempSync(join(tmpdir(), 'folio-readme-'));
  symlinkSync(join(ROOT, 'samples'), join(dir, 'samples'));
}, 120_000);
afterAll(async () => {
  await server?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('README: Use it over REST', () => {
  let ran: { stdout: string; stderr: string };
  let requests: { method: string; path: string; status: number }[];

  beforeAll(async () => {
    // "Run it": registered, and the verification link clicked.
    const email = 'ana@example.com';
    const password = 'una-clave-segura';
    expect((await call(server, 'POST', '/api/auth/register', { body: { email, password } })).status).toBe(
      201,
    );
    const mail = await call(server, 'GET', `/__dev/mail.json?to=${encodeURIComponent(email)}`);
    const token = /verify-email\?token=([^\s&"'<>)]+)/.exec(mail.body.data[0].text)?.[1];
    expect((await call(server, 'GET', `/api/auth/verify-email?token=${token}`)).status).toBe(200);

    const before = server.output().length;
    const script = shellBlock('## Use it over REST').replaceAll('localhost:3000', `127.0.0.1:${server.port}`);
    ran = await run('bash', ['-c', `set -eo pipefail\n${script}`], { cwd: dir });
    // The server logs every request with its status (LOG_LEVEL=info); the script's last one is the 400.
    await vi.waitFor(() => expect(server.output().slice(before)).toContain('"status":400'));
    requests = server
      .output()
      .slice(before)
      .split('\n')
      .filter((l) => l.includes('"msg":"request"'))
      .map((l) => JSON.parse(l));
  }, 120_000);

  it('every command succeeds but the one that shows the error shape (400)', () => {
    const failed = requests.filter((r) => r.status >= 400);
    expect(failed).toEqual([expect.objectContaining({ method: 'GET', path: '/api/invoices', status: 400 })]);
    expect(ran.stdout).toContain('"code":"validation_failed"');
  });

  it('upgrades before it creates the key, and the key does the rest', () => {
    const paths = requests.map((r) => `${r.method} ${r.path}`);
    expect(paths.indexOf('POST /api/api-keys')).toBeGreaterThan(
      paths.findIndex((p) => /^POST \/__dev\/billing\/checkout\/.+\/complete$/.test(p)),
    );
    expect(ran.stdout).toContain('"plan":"PRO"');
  });

  it('files the upload on both sides, records the manual expense and writes the exports', () => {
    expect(ran.stdout).toMatch(/"kind":"invoice","tipo":"PPD"/);
    expect(ran.stdout).toMatch(/"kind":"expense"/);
    expect(ran.stdout).toContain('Papelería');
    for (const file of ['facturas-LORM850312QK7-2026-08.xlsx', 'gastos-LORM850312QK7.csv'])
      expect(existsSync(join(dir, file)), file).toBe(true);
  });
});
