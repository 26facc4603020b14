// A fresh clone's first hour (issue 27): a server started on an empty database without
// SAT_CATALOG_CSV serves the whole SAT catalog shipped in packages/db/data, and `pnpm demo` leaves a
// PRO user with the samples imported, twice in a row. On PostgreSQL (TEST_DATABASE_URL) the server
// gets a fresh database of that cluster; otherwise an empty PGlite directory.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES_DIR } from '../scripts/demo-taxpayer';
import { freshServerDatabase, type ServerDatabase } from './support/server-database';
import { call, type ServerProcess, startServer } from './support/server-process';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SAMPLES = readdirSync(SAMPLES_DIR).filter((f) => f.endsWith('.xml')).length;

let server: ServerProcess;
let database: ServerDatabase | undefined;
const modelDir = mkdtempSync(join(tmpdir(), 'folio-first-model-'));
const modelFile = join(modelDir, 'sat-meaning-model.bin');

beforeAll(async () => {
  database = await freshServerDatabase('first');
  // No SAT_CATALOG_CSV (the test servers' default is the starter set): what `pnpm start` does.
  server = await startServer({
    ...database.env,
    SAT_CATALOG_CSV: undefined,
    SAT_MEANING_MODEL_FILE: modelFile,
    LOG_LEVEL: 'info',
  });
}, 180_000);

afterAll(async () => {
  await server?.kill('SIGTERM');
  await database?.drop();
  rmSync(modelDir, { recursive: true, force: true });
});

describe('first start on an empty database, without SAT_CATALOG_CSV', () => {
  it('loads the whole shipped catalog and says so in the log', () => {
    expect(server.output()).toMatch(/"kind":"bundled","rows":52514/);
  });

  /** The first line of the server's log (its first start's child's included) that matches. */
  const at = (pattern: RegExp) =>
    server
      .output()
      .split('\n')
      .findIndex((l) => pattern.test(l));

  // docs/design.md#start-up: what a first start grows in PGlite's WebAssembly memory and V8's heap
  // stays with the child that exits; the server opens the directory as on a restart.
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'on an empty PGlite directory a child process imports the catalog and writes the meaning model; the server then finds them',
    () => {
      const imported = at(/"kind":"bundled","rows":52514/);
      const model = at(/"from":"built".*SAT meaning model ready/);
      const found = at(/"kind":"existing","rows":52514/);
      expect(imported).toBeGreaterThanOrEqual(0);
      expect(model).toBeGreaterThan(imported);
      expect(found).toBeGreaterThan(model);
      expect(existsSync(modelFile)).toBe(true);
    },
  );

  // The same model file on PostgreSQL: the server imports the catalog, then a child builds the model,
  // so no search builds it in the serving process (docs/design.md#start-up).
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'on PostgreSQL the server imports the catalog, then a child process writes the meaning model before it serves',
    () => {
      const imported = at(/"kind":"bundled","rows":52514/);
      const model = at(/"from":"built".*SAT meaning model ready/);
      expect(imported).toBeGreaterThanOrEqual(0);
      expect(model).toBeGreaterThan(imported);
      expect(existsSync(modelFile)).toBe(true);
    },
  );

  it('GET /api/sat/search finds a code that only the full catalog has', async () => {
    const email = `first-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'correct horse 1';
    expect((await call(server, 'POST', '/api/auth/register', { body: { email, password } })).status).toBe(
      201,
    );
    const login = await call(server, 'POST', '/api/auth/login', { body: { email, password } });
    // 10101500 "Animales vivos de granja" is not among the starter set's 44 codes.
    const res = await call(server, 'GET', '/api/sat/search?query=animales%20vivos%20de%20granja&limit=5', {
      token: login.body.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { id: string }) => i.id)).toContain('10101500');
  });
});

describe('pnpm demo against the started server', () => {
  // As the README has it: `pnpm demo` from the clone's root.
  const demo = () =>
    run('pnpm', ['demo'], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', FOLIO_URL: server.url },
    });
  /** The value printed after `label` in the demo's summary. */
  const field = (out: string, label: string) => new RegExp(`^ {2}${label} +(\\S+)`, 'm').exec(out)?.[1];
  const curlLines = (out: string) => out.split('\n').filter((l) => l.trim().startsWith('curl '));
  let first: { stdout: string; stderr: string };
  let second: { stdout: string; stderr: string };

  beforeAll(async () => {
    first = await demo();
    second = await demo();
  }, 120_000);

  it('first run: registers, verifies, upgrades to PRO, creates the profile and imports the samples', () => {
    expect(first.stderr).toContain('registered demo@folio.local');
    expect(first.stderr).toContain('email verified');
    expect(first.stderr).toMatch(/upgraded to PRO/);
    expect(first.stderr).toContain('profile LORM850312QK7 (Mariana López Ruiz) created');
    expect(first.stderr).toContain(`samples/cfdi: ${SAMPLES - 1} imported, 0 already there, 1 refused`);
    expect(first.stdout).toMatch(/API key +folio_/);
    expect(curlLines(first.stdout)).toHaveLength(3);
  });

  it('second run: logs in and reuses the user, plan and profile; nothing is imported twice', () => {
    expect(second.stderr).toContain('demo@folio.local exists: logged in');
    expect(second.stderr).toMatch(/already on PRO/);
    expect(second.stderr).not.toContain('created');
    expect(second.stderr).toContain(`samples/cfdi: 0 imported, ${SAMPLES - 1} already there, 1 refused`);
    expect(field(second.stdout, 'profile')).toBe(field(first.stdout, 'profile'));
  });

  it("replaces the demo's API key: the first run's key is revoked, the second's works", async () => {
    const [oldKey, newKey] = [field(first.stdout, 'API key'), field(second.stdout, 'API key')];
    expect(newKey).not.toBe(oldKey);
    expect((await call(server, 'GET', '/api/profiles', { token: oldKey })).status).toBe(401);
    expect((await call(server, 'GET', '/api/profiles', { token: newKey })).status).toBe(200);
  });

  it('the search by meaning runs over the whole catalog: finds a code the starter set lacks', async () => {
    // 72101511 "Servicio de instalación o mantenimiento o reparación de aires acondicionados".
    const res = await call(
      server,
      'GET',
      '/api/sat/ai-search?query=mantenimiento%20de%20aire%20acondicionado&limit=5',
      {
        token: field(second.stdout, 'token'),
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { id: string }) => i.id)).toContain('72101511');
  });

  it("the demo user's exports have data: the invoices as csv and xlsx, the expenses as csv", async () => {
    const token = field(second.stdout, 'token');
    const get = (path: string) =>
      fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const invoicesCsv = await get('/api/invoices/export?profileId=LORM850312QK7&format=csv');
    expect(invoicesCsv.status).toBe(200);
    // A header line, then one row per stored invoice (CRLF, RFC 4180).
    expect((await invoicesCsv.text()).trim().split('\r\n').length).toBeGreaterThan(1);
    const expensesCsv = await get('/api/expenses/export?profileId=LORM850312QK7&format=csv');
    expect((await expensesCsv.text()).trim().split('\r\n').length).toBeGreaterThan(1);
    const xlsx = await get('/api/invoices/export?profileId=LORM850312QK7&format=xlsx');
    expect(xlsx.status).toBe(200);
    expect((await xlsx.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('the three curl lines it prints answer 200 with data: invoices, a monthly report, a search by meaning', async () => {
    const answers = [];
    for (const line of curlLines(second.stdout)) {
      const { stdout } = await run('bash', ['-c', `${line} -w '\\n%{http_code}'`]);
      const status = stdout.slice(stdout.lastIndexOf('\n') + 1);
      expect(status, line).toBe('200');
      answers.push(JSON.parse(stdout.slice(0, stdout.lastIndexOf('\n'))));
    }
    const [invoices, report, search] = answers;
    expect(invoices.data.length).toBeGreaterThan(0);
    // PRO: the advanced report, with the RESICO section of a persona física in 626; in August
    // Jorge Ramírez paid the first half of the campaign invoice.
    expect(report.data).toMatchObject({ nivel: 'advanced', resico: expect.any(Object) });
    expect(report.data.por_cliente.map((c: { rfc: string }) => c.rfc)).toContain('RASJ780621HB5');
    expect(search.items.length).toBeGreaterThan(0);
  });
});

// docs/cli.md's commands on the repository's samples, as a new user types them in the clone
// (`pnpm folio …` from its root): the folder imports
// with only the draft that is refused on purpose (exit 1, the reason in the table).
describe('docs/cli.md: folio profiles create and folio import samples/cfdi', () => {
  let env: Record<string, string>;

  beforeAll(async () => {
    const email = `cli-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'correct horse 1';
    await call(server, 'POST', '/api/auth/register', { body: { email, password } });
    const login = await call(server, 'POST', '/api/auth/login', { body: { email, password } });
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      FOLIO_URL: server.url,
      FOLIO_TOKEN: login.body.accessToken,
      FOLIO_CONFIG: '/nonexistent/folio-config.json',
    };
  });

  const folio = (args: string[]) =>
    run('pnpm', ['folio', ...args], { cwd: REPO, env }).catch(
      (err: { code: number; stdout: string; stderr: string }) => err,
    );

  it('imports every sample but the unstamped draft, which it names with the reason; exit 1', async () => {
    const created = await folio([
      'profiles',
      'create',
      '--rfc',
      'LORM850312QK7',
      '--nombre',
      'Mariana López Ruiz',
      '--regimen',
      '626',
    ]);
    expect(created.stdout).toContain('LORM850312QK7');
    const res = await folio(['import', 'samples/cfdi', '--profile', 'LORM850312QK7']);
    expect('code' in res ? res.code : 0).toBe(1);
    expect(res.stdout).toMatch(new RegExp(`^importados\\s+${SAMPLES - 1}$`, 'm'));
    expect(res.stdout).toMatch(/^rechazados\s+1$/m);
    expect(res.stdout).toMatch(/^2026-09-20-gasto-borrador-sin-timbre\.xml\s+rechazado\s+CFDI sin timbre/m);
  });
});
