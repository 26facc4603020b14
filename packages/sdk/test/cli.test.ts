import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
      '██████░░░░░░░░░░░░░░░░░░  25%  25/100 archivos  12.5 archivos/s  faltan 6s',
    );
    p.update({ files: 25, bytes: 250 });
    expect(t.err()).toContain('25/100 archivos');
  });
});

type ServerOpts = { plan?: 'FREE' | 'PRO'; failMidway?: boolean; afterFirst?: (() => void) | undefined };

describe('folio export and folio pdf (a fake server)', () => {
  const home = mkdtempSync(join(tmpdir(), 'folio-cli-export-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  const UUID = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';
  const CSV = ['\uFEFFUUID,Total\r\n', `${UUID},1160\r\n`];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  /** A streamed file; `fail` errors it after the chunks, an abort of `signal` errors it at once. */
  const file = (
    chunks: string[],
    name: string,
    type: string,
    opts: { fail?: boolean; signal?: AbortSignal; afterFirst?: () => void } = {},
  ) => {
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        opts.signal?.addEventListener('abort', () => c.error(opts.signal?.reason));
      },
      pull(c) {
        const chunk = chunks[i++];
        if (chunk !== undefined) c.enqueue(new TextEncoder().encode(chunk));
        else if (opts.fail) c.error(new TypeError('terminated'));
        else c.close();
        if (i === 1) opts.afterFirst?.();
      },
    });
    return new Response(body, {
      headers: { 'content-type': type, 'content-disposition': `attachment; filename="${name}"` },
    });
  };

  /** The routes the commands use; `seen` keeps every URL asked for. */
  function server(opts: ServerOpts = {}) {
    const seen: URL[] = [];
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      seen.push(url);
      const q = url.searchParams;
      switch (url.pathname) {
        case '/api/profiles':
          return json(200, { data: [{ id: 'p-1', rfc: 'H&E951128469', nombre: 'HE' }] });
        case '/api/invoices/export':
          if (q.get('format') !== 'csv' && opts.plan === 'FREE')
            return json(403, { error: 'Forbidden', message: 'Excel export requires the BASIC or PRO plan' });
          return file(CSV, 'facturas-H&E951128469-2025-03.csv', 'text/csv; charset=utf-8', {
            fail: opts.failMidway,
            signal: request.signal,
            afterFirst: opts.afterFirst,
          });
        case '/api/invoices':
          return json(200, {
            data: q.get('search') === UUID.toLowerCase() ? [{ id: 'cfdi-1', uuid: UUID }] : [],
            pagination: { total: 0, page: 1, limit: 100, totalPages: 0 },
          });
        case '/api/expenses':
          return json(200, { data: [], pagination: { total: 0, page: 1, limit: 100, totalPages: 0 } });
        case '/api/invoices/cfdi-1/pdf':
          return file(['%PDF-1.7\n', '%%EOF\n'], `${UUID}.pdf`, 'application/pdf');
        default:
          return json(404, { error: 'Not Found', message: 'Invoice not found' });
      }
    }) as typeof globalThis.fetch;
    return { fetch, seen };
  }

  function run(args: string[], opts: ServerOpts & { tty?: boolean; ctrlC?: boolean } = {}) {
    const t = fakeIo({ FOLIO_URL: 'http://api.test', FOLIO_TOKEN: 'tok' });
    const cwd = mkdtempSync(join(home, 'cwd-'));
    let interrupt: (() => void) | undefined;
    t.io.onInterrupt = (handler) => {
      interrupt = handler;
      return () => {
        interrupt = undefined;
      };
    };
    // Ctrl-C once the first bytes are in.
    const s = server({ ...opts, afterFirst: opts.ctrlC ? () => interrupt?.() : undefined });
    t.io.cwd = cwd;
    t.io.fetch = s.fetch;
    t.io.stderr.isTTY = opts.tty ?? false;
    return runCli(args, t.io).then((code) => ({
      code,
      ...t,
      cwd,
      files: () => readdirSync(cwd),
      seen: s.seen,
    }));
  }

  it('saves the export under the server’s name with the filters as query parameters; the path alone on stdout, nothing on a non-terminal stderr', async () => {
    const r = await run([
      'export',
      'invoices',
      '--profile',
      'h&e951128469',
      '--mes',
      '3',
      '--año',
      '2025',
      '--format',
      'csv',
    ]);
    expect(r.err()).toBe('');
    expect(r.code).toBe(0);
    expect(r.out()).toBe('facturas-H&E951128469-2025-03.csv\n');
    expect(readFileSync(join(r.cwd, 'facturas-H&E951128469-2025-03.csv'), 'utf8')).toBe(CSV.join(''));
    const asked = r.seen.find((u) => u.pathname === '/api/invoices/export')!;
    expect(Object.fromEntries(asked.searchParams)).toEqual({
      profileId: 'p-1',
      mes: '3',
      año: '2025',
      format: 'csv',
    });
  });

  it('-o names the file (or the folder to put it in); a terminal sees the progress on stderr', async () => {
    const r = await run(['export', 'invoices', '--format', 'csv', '-o', 'marzo.csv'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.files()).toEqual(['marzo.csv']);
    expect(r.out()).toBe('marzo.csv\n');
    // One line redrawn in place (\r … erase to the end), closed by a newline when done.
    const drawn = r.err().split('\r').filter(Boolean);
    expect(drawn.length).toBeGreaterThan(0);
    for (const line of drawn) {
      const [text, after] = line.split('\u001b[K');
      expect(text).toMatch(/^marzo\.csv {2}\d+ B {2}[\d.]+ (B|KB|MB)\/s$/);
      expect(['', '\n']).toContain(after);
    }
    expect(r.err().endsWith('\n')).toBe(true);

    const d = await run(['export', 'invoices', '--format', 'csv', '-o', 'out/']);
    expect(d.code).toBe(1); // no such folder
    expect(d.err()).toBe(
      'folio export: Cannot write out/facturas-H&E951128469-2025-03.csv (ENOENT); nothing was written.\n',
    );
    expect(d.files()).toEqual([]);
  });

  it('shows the server’s 403 (the plan needed), exit 1, and writes nothing', async () => {
    const r = await run(['export', 'invoices', '-o', 'x.xlsx'], { plan: 'FREE' });
    expect(r.code).toBe(1);
    expect(r.err()).toBe('folio export: Forbidden (403): Excel export requires the BASIC or PRO plan\n');
    expect(r.files()).toEqual([]);
  });

  it('a download cut midway leaves no file behind (exit 1)', async () => {
    const r = await run(['export', 'invoices', '--format', 'csv', '-o', 'x.csv'], { failMidway: true });
    expect(r.code).toBe(1);
    expect(r.err()).toMatch(
      /^folio export: The download stopped after \d+ B: terminated; x\.csv was not written\.\n$/,
    );
    expect(r.files()).toEqual([]);
  });

  it('Ctrl-C stops the download: exit 130, and nothing is written', async () => {
    const r = await run(['export', 'invoices', '--format', 'csv', '-o', 'x.csv'], { ctrlC: true });
    expect(r.code).toBe(130);
    expect(r.err()).toBe('Interrupted (Ctrl-C); x.csv was not written.\n');
    expect(r.out()).toBe('');
    expect(r.files()).toEqual([]);
  });

  it('refuses bad command lines with exit 2 before any request', async () => {
    for (const [args, message] of [
      [['export'], 'say what to export: invoices or expenses'],
      [['export', 'profiles'], 'cannot export "profiles"'],
      [['export', 'invoices', '--format', 'pdf'], '--format must be xlsx, csv'],
      [['export', 'invoices', '--tipo', 'PPD'], '--tipo and --categoria filter expenses only'],
      [['export', 'expenses', '--mes', '0'], '--mes must be 1-12'],
      [['pdf'], 'folio pdf needs the UUID'],
      [['pdf', 'F-123'], '"F-123" is not a UUID'],
    ] as const) {
      const r = await run([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err()).toContain(message);
      expect(r.seen).toEqual([]);
    }
  });

  it('folio pdf finds the document by its UUID and saves the PDF under the server’s name', async () => {
    const r = await run(['pdf', UUID.toLowerCase()]);
    expect(r.code).toBe(0);
    expect(r.out()).toBe(`${UUID}.pdf\n`);
    expect(readFileSync(join(r.cwd, `${UUID}.pdf`), 'utf8')).toBe('%PDF-1.7\n%%EOF\n');

    const unknown = await run(['pdf', '00000000-0000-4000-8000-000000000000', '-o', 'f.pdf']);
    expect(unknown.code).toBe(1);
    expect(unknown.err()).toBe(
      'folio pdf: No CFDI with UUID or id 00000000-0000-4000-8000-000000000000 in your account.\n',
    );
    expect(unknown.files()).toEqual([]);
  });
});
