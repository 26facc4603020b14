import { describe, expect, it } from 'vitest';
import { renderTable } from '../src/cli/format';
import type { Io } from '../src/cli/io';
import { runCli } from '../src/cli/main';
import { Progress } from '../src/cli/progress';

function fakeIo(env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  let clock = 0;
  const io: Io = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    stdin: process.stdin,
    env: { FOLIO_CONFIG: '/nonexistent/folio.json', ...env },
    cwd: process.cwd(),
    now: () => clock,
  };
  return { io, out: () => out, err: () => err, tick: (ms: number) => (clock += ms) };
}

describe('folio (command line)', () => {
  it('prints usage and exits 2 without a command, 0 for --help', async () => {
    const none = fakeIo();
    expect(await runCli([], none.io)).toBe(2);
    expect(none.out()).toContain('folio import <folder|file.zip|file.xml> --profile <RFC|id>');
    const help = fakeIo();
    expect(await runCli(['--help'], help.io)).toBe(0);
  });

  it('refuses unknown commands, unknown flags and bad values with exit 2', async () => {
    const a = fakeIo();
    expect(await runCli(['frobnicate'], a.io)).toBe(2);
    expect(a.err()).toContain('unknown command "frobnicate"');
    const b = fakeIo();
    expect(await runCli(['invoices', '--nope'], b.io)).toBe(2);
    expect(b.err()).toContain("Unknown option '--nope'");
    const c = fakeIo({ FOLIO_TOKEN: 't' });
    expect(await runCli(['invoices', '--mes', '13'], c.io)).toBe(2);
    expect(c.err()).toContain('--mes must be 1-12');
    const d = fakeIo();
    expect(await runCli(['import', 'x'], d.io)).toBe(2);
    expect(d.err()).toContain('--profile');
  });

  it('says how to log in when there is no token', async () => {
    const t = fakeIo({ FOLIO_URL: 'http://127.0.0.1:9' });
    expect(await runCli(['pending'], t.io)).toBe(1);
    expect(t.err()).toContain('Not logged in to http://127.0.0.1:9. Run `folio login`');
  });

  it('explains an unreachable server in one line', async () => {
    const t = fakeIo({ FOLIO_URL: 'http://127.0.0.1:9', FOLIO_TOKEN: 'x' });
    t.io.fetch = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    expect(await runCli(['profiles'], t.io)).toBe(1);
    expect(t.err()).toMatch(/^folio profiles: Cannot reach http:\/\/127\.0\.0\.1:9: GET .*fetch failed\n$/);
  });
});

describe('tables and progress', () => {
  it('aligns columns, right-aligns numbers and cuts long cells', () => {
    const text = renderTable(
      [
        { header: 'name', max: 8 },
        { header: 'n', align: 'right' },
      ],
      [
        ['añoñoñoñoño', '1'],
        ['b', '1,234.50'],
      ],
    );
    expect(text.split('\n')).toEqual([
      'name             n',
      '────────  ────────',
      'añoñoño…         1',
      'b         1,234.50',
    ]);
  });

  it('shows files done, files/s and an ETA from the bytes left', () => {
    const t = fakeIo();
    const p = new Progress(t.io, { files: 100, bytes: 1000 });
    t.tick(2000);
    expect(p.line({ files: 25, bytes: 250 })).toBe(
      '██████░░░░░░░░░░░░░░░░░░  25%  25/100 files  12.5 files/s  ETA 6s',
    );
    p.update({ files: 25, bytes: 250 });
    expect(t.err()).toContain('25/100 files');
  });
});
