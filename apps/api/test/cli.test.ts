import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, setPlan, signUp, startTestApp, type TestApp, type TestUser } from './harness';
import { listen } from './listen';
import { haveSamples, SAMPLES_DIR } from './samples';

// The `folio` command as a user runs it: a child process (tsx on the SDK's source) talking over TCP
// to this file's app, served on a free port.
const require = createRequire(import.meta.url);
const BIN = join(dirname(require.resolve('@folio/sdk/package.json')), 'src/cli/bin.ts');
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

const HE = 'H&E951128469';
const XIQB = 'XIQB891116QE4';

describe.skipIf(!haveSamples)('folio CLI against a running server', { timeout: 60_000 }, () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let home: string;
  let user: TestUser;

  function folio(args: string[], opts: { input?: string; env?: Record<string, string> } = {}) {
    return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
        cwd: APP_DIR,
        env: {
          ...process.env,
          FOLIO_URL: server.url,
          FOLIO_CONFIG: join(home, 'config.json'),
          FOLIO_TOKEN: '',
          FOLIO_PASSWORD: '',
          ...opts.env,
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      child.stdin.end(opts.input ?? '');
    });
  }

  beforeAll(async () => {
    t = await startTestApp();
    server = await listen(t);
    home = mkdtempSync(join(tmpdir(), 'folio-cli-'));
    user = await signUp(t);
    await setPlan(t, user.id, 'PRO');
    await createProfile(t, user, {
      nombre: 'Herrería y Eléctricos',
      rfc: HE,
      tipo_persona: 'MORAL',
      regimenes_fiscales: ['601'],
    });
    await createProfile(t, user, {
      nombre: 'Xiomara',
      rfc: XIQB,
      tipo_persona: 'FISICA',
      regimenes_fiscales: ['612'],
    });
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('logs in with the password on stdin and keeps the token in a private config file', async () => {
    const res = await folio(['login', '--email', user.email, '--password-stdin'], {
      input: `${user.password}\n`,
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`Logged in to ${server.url} as ${user.email}`);
    const file = join(home, 'config.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ url: server.url, email: user.email });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const who = await folio(['whoami']);
    expect(who.stdout).toContain(user.email);
  });

  it('refuses a wrong password with the API’s message and exit 1', async () => {
    const res = await folio(['login', '--email', user.email, '--password-stdin'], {
      input: 'wrong password',
      env: { FOLIO_CONFIG: join(home, 'other.json') },
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^folio login: .*\(401\)/);
  });

  it('imports the samples folder into H&E951128469: progress on stderr, the summary table, exit 1 for the rejections', async () => {
    const res = await folio(['import', SAMPLES_DIR, '--profile', HE.toLowerCase(), '--batch', '5']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`Importing 12 file(s) from ${SAMPLES_DIR} into ${HE}`);
    expect(res.stderr).toMatch(/100%\s+12\/12 files\s+[\d.]+ files\/s\s+ETA 0s/);
    const out = res.stdout;
    const lines = out.split('\n');
    const row = (name: string) => lines.find((l) => l.startsWith(`${name} `)) ?? `(no row for ${name})`;
    expect(out).toMatch(/^result\s+files$/m);
    expect(out).toMatch(/^imported\s+2$/m);
    expect(out).toMatch(/^duplicate\s+0$/m);
    expect(out).toMatch(/^rejected\s+10$/m);
    expect(out).toMatch(/^total\s+12$/m);
    expect(out).toMatch(/^file\s+status\s+detail$/m);
    expect(row('cfdi32-legacy-real.xml')).toMatch(/rejected\s+versión no soportada: 3\.2$/);
    for (const unstamped of [
      'cfdi33-pagos10-con-bom.xml',
      'cfdi40-ingreso-usd-tipocambio.xml',
      'cfdi40-pago20-mxn-docs-usd.xml',
      'cfdi40-pago20-parcial-y-liquidacion.xml',
      'cfdi40-pago20-usd-docs-mxn-equivalenciadr.xml',
    ]) {
      expect(row(unstamped)).toMatch(/rejected\s+CFDI sin timbre/);
    }
    for (const [file, rfc] of [
      ['cfdi40-ingreso-pue-real.xml', 'ISD950921HE5'],
      ['cfdi33-ingreso-pue-real.xml', 'POT9207213D6'],
      ['cfdi40-nomina.xml', 'AAA010101AAA'],
      ['cfdi40-ingreso-ppd-retenciones-isr-iva.xml', 'XIQB891116QE4'],
    ]) {
      expect(row(file as string)).toMatch(
        new RegExp(`rejected\\s+El RFC del perfil \\(H&E951128469\\).*\\(${rfc}\\)`),
      );
    }
    // Imported files are in the counts, not in the detail table (unless --verbose).
    expect(out).not.toContain('cfdi40-ingreso-ppd-rfc-ampersand.xml');
    expect(out).toContain(`2 imported, 0 duplicate, 10 rejected into ${HE}`);
  });

  it('reports the second run as duplicates; --json gives the full report', async () => {
    const res = await folio(['import', SAMPLES_DIR, '--profile', HE, '--json', '--quiet']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('');
    const report = JSON.parse(res.stdout);
    expect(report).toMatchObject({ profile: { rfc: HE }, imported: 0, duplicates: 2, rejected: 10 });
    expect(report.files).toHaveLength(12);
    expect(
      report.files
        .filter((f: { status: string }) => f.status === 'duplicate')
        .map((f: { name: string }) => f.name)
        .sort(),
    ).toEqual(['cfdi40-ingreso-ppd-rfc-ampersand.xml', 'cfdi40-pago20-liquida-ppd-rfc-ampersand.xml']);
  });

  it('imports one file for another profile and lists invoices as a table and as JSON', async () => {
    const one = await folio([
      'import',
      join(SAMPLES_DIR, 'cfdi40-ingreso-ppd-retenciones-isr-iva.xml'),
      '--profile',
      XIQB,
    ]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^imported\s+1$/m);

    const table = await folio(['invoices', '--profile', HE, '--mes', '1', '--año', '2020']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(`Invoices for ${HE} (Herrería y Eléctricos), 01/2020`);
    expect(table.stdout).toMatch(/^fecha\s+tipo\s+uuid\s+cliente\s+total\s+estado\s+válida$/m);
    expect(table.stdout).toMatch(
      /2020-01-01\s+PPD\s+6D7434A6-E3F2-47AD-9E4C-08849946AFA0\s+.*KIJ0906199R1\s+17,852\.75\s+pagada\s+sí/,
    );
    expect(table.stdout).toContain('2 invoice(s); invoiced 17,852.75');

    const json = await folio(['invoices', '--anio', '2020', '--json']);
    const all = JSON.parse(json.stdout) as { uuid: string; profile?: { rfc: string } }[];
    expect(all.map((i) => i.profile?.rfc).sort()).toEqual([HE, HE, XIQB]);
  });

  it('lists PPD invoices not fully paid, oldest first', async () => {
    const res = await folio(['pending']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('PPD invoices not fully paid, oldest first (all profiles)');
    const rows = res.stdout.split('\n').filter((l) => /^\d{4}-\d{2}-\d{2}\s/.test(l));
    // The H&E invoice is settled by its complement; the XIQB one is owed in full.
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(new RegExp(`${XIQB}\\s+.*14,672\\.08\\s+0\\.00\\s+14,672\\.08\\s+sin pagar$`));
    expect(res.stdout).toContain('1 invoice(s); outstanding 14,672.08');
    const none = await folio(['pending', '--profile', HE]);
    expect(none.stdout).toContain(`No PPD invoices waiting for payment in ${HE}`);
  });

  it('names the profiles it knows when --profile matches none', async () => {
    const res = await folio(['invoices', '--profile', 'AAA010101AAA']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('No profile "AAA010101AAA" in your account (yours: ');
  });
});

it.runIf(!haveSamples)('folio CLI tests skipped: ../shared/data/cfdi-samples is not here', () => {});
