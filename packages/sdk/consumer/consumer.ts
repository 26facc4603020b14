/**
 * A consumer of the packed @folio/sdk, outside the workspace (scripts/sdk-consume.sh). `tsc` checks it
 * against the published types, then it runs against `pnpm start` (scripts/smoke.sh) with FOLIO_URL,
 * FOLIO_EMAIL and FOLIO_PASSWORD (the client logs in by itself), FOLIO_TOKEN (for the `folio` bin),
 * FOLIO_SAMPLES (samples/cfdi) and SMOKE_RESTART_FILE (written to have smoke.sh restart the server).
 * The @ts-expect-error lines prove the types are real: were anything `any`, tsc would fail on them.
 */
import { execFile } from 'node:child_process';
import { access, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type AppRouter,
  createFolioClient,
  FolioApiError,
  type FolioErrorCode,
  type Invoice,
  type Profile,
  type RouterInputs,
  type RouterOutputs,
  TRPCClientError,
} from '@folio/sdk';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(): T | undefined => undefined;
assertType<Equal<RouterInputs['invoices']['list']['mes'], number | undefined>>();
assertType<Equal<RouterOutputs['invoices']['list']['pagination']['totalPages'], number>>();
assertType<Equal<RouterOutputs['profiles']['create']['data']['tipo_persona'], 'FISICA' | 'MORAL'>>();
assertType<Equal<Invoice['estadoPago'], RouterOutputs['invoices']['get']['estadoPago']>>();

const step = (what: string) => console.log(`consumer: ok  ${what}`);
function check(cond: unknown, what: string): asserts cond {
  if (!cond) throw new Error(`consumer: FAILED ${what}`);
}

const { FOLIO_URL: baseUrl, FOLIO_TOKEN: token, FOLIO_EMAIL: login, FOLIO_PASSWORD: password } = process.env;
const { FOLIO_SAMPLES: samples, SMOKE_RESTART_FILE: restartFile } = process.env;
if (!baseUrl || !token || !login || !password || !samples || !restartFile) {
  throw new Error(
    'set FOLIO_URL, FOLIO_TOKEN, FOLIO_EMAIL, FOLIO_PASSWORD, FOLIO_SAMPLES and SMOKE_RESTART_FILE',
  );
}
// The OpenAPI server URL (…/api/) as the base; email and password instead of a token; retries long
// enough to outlast a restart of `pnpm start` (it builds again before it listens).
const folio = createFolioClient({
  baseUrl: `${baseUrl}/api/`,
  email: login,
  password,
  timeout: 30_000,
  retries: { retries: 60, maxDelayMs: 4000 },
});

// tRPC, typed end to end (superjson, batching).
const [me, before] = await Promise.all([folio.trpc.auth.me.query(), folio.trpc.profiles.list.query()]);
const email: string = me.user.email;
check(email.includes('@') && Array.isArray(before.data), 'trpc auth.me + profiles.list (one batch)');
step(`trpc: ${email}, ${before.data.length} profile(s)`);

// The demo taxpayer of samples/cfdi (a FREE account has one profile).
const rfc = 'LORM850312QK7';
const created = await folio.trpc.profiles.create.mutate({
  nombre: 'Mariana López Ruiz',
  rfc,
  tipo_persona: 'FISICA',
  regimenes_fiscales: ['626'],
});
const profile: Profile = created.data;
check(profile.rfc === rfc && profile.frozen === false, 'trpc profiles.create');
step(`trpc: profile ${profile.id} created`);

// @ts-expect-error: no such procedure
void folio.trpc.invoices.nope;
// @ts-expect-error: mes is a number
void (() => folio.trpc.invoices.list.query({ mes: 'marzo' }));
// @ts-expect-error: tipo_persona is FISICA | MORAL
void (() => folio.trpc.profiles.create.mutate({ nombre: 'x', rfc, tipo_persona: 'SA' }));

const trpcError = await folio.trpc.invoices.get.query({ id: 'missing' }).catch((e: unknown) => e);
check(
  trpcError instanceof TRPCClientError && (trpcError as TRPCClientError<AppRouter>).data?.httpStatus === 404,
  'trpc errors carry the HTTP status',
);
step('trpc: 404 as TRPCClientError');

// REST, typed from the OpenAPI document; failures throw FolioApiError.
const { data: page, response } = await folio.rest.GET('/invoices', {
  params: { query: { profileId: profile.id, año: 2025, mes: 3, limit: 10 } },
});
const first: Invoice | undefined = page.data[0];
check(response.status === 200 && page.pagination.limit === 10 && first === undefined, 'rest GET /invoices');
step(`rest: GET /invoices → ${page.pagination.total} invoice(s)`);

// @ts-expect-error: not a path of the API
void (() => folio.rest.GET('/invoicez'));
// @ts-expect-error: `parms` is no init key (a typo must not compile and silently drop the filter)
void (() => folio.rest.GET('/invoices', { parms: { query: { mes: 3 } } }));
// @ts-expect-error: año is a number
void (() => folio.rest.GET('/invoices', { params: { query: { año: '2025' } } }));

const upload = await folio.rest.uploadCfdi(profile.id, [{ name: 'borrador.xml', content: '<nota/>' }]);
const line = upload.files[0];
check(upload.rejected === 1 && line?.status === 'rejected' && line.error, 'rest multipart upload');
step(`rest: upload reports "${line.error}"`);

// The samples, then every invoice page by page; smoke.sh restarts the server after the first page
// and the walk goes on through the client's retries.
const names = (await readdir(samples)).filter((n) => n.endsWith('.xml')).sort();
const report = await folio.rest.uploadCfdi(
  profile.id,
  await Promise.all(names.map(async (name) => ({ name, content: await readFile(join(samples, name)) }))),
);
check(report.imported >= 3, `samples import: ${report.imported} imported`);
const { data: listed } = await folio.rest.GET('/invoices', {
  params: { query: { profileId: profile.id, limit: 1 } },
});
const total = listed.pagination.total;
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
const walked: string[] = [];
let restarted = false;
for await (const invoice of folio.rest.paginate('/invoices', {
  params: { query: { profileId: profile.id, limit: 2 } },
})) {
  walked.push(invoice.id);
  if (walked.length === 2 && total > 2) {
    await writeFile(restartFile, 'restart');
    // smoke.sh deletes the file once the server is down and starting again.
    while (await exists(restartFile)) await new Promise((r) => setTimeout(r, 200));
    restarted = true;
    step('paginate: the server was stopped after the first page');
  }
}
check(restarted && total > 2, `the samples fill more than one page (${total} invoices)`);
check(
  walked.length === total && new Set(walked).size === total,
  `paginate yields each of the ${total} invoices once (got ${walked.length})`,
);
step(`paginate: ${total} invoices in pages of 2, through a server restart`);

const restError = await folio.rest
  .GET('/invoices/{id}', { params: { path: { id: 'missing' } } })
  .catch((e: unknown) => e);
check(restError instanceof FolioApiError, 'rest failures are FolioApiError');
check(
  restError.status === 404 && restError.error === 'Not Found' && restError.requestId,
  'FolioApiError fields',
);
step(`rest: 404 → ${restError.error}: ${restError.message} (request ${restError.requestId})`);

// `code` is the API's error-code union: each case must name a code of it, or tsc fails.
function meaning(code: FolioErrorCode | null): string {
  switch (code) {
    case 'not_found':
      return 'no such thing';
    case 'validation_failed':
      return 'fix the input';
    default:
      return code ?? 'no code';
  }
}
check(meaning(restError.code) === 'no such thing', 'err.code is not_found');

const anonymous = createFolioClient({ baseUrl });
const unauthorized = await anonymous.rest.GET('/auth/me').catch((e: unknown) => e);
check(unauthorized instanceof FolioApiError && unauthorized.status === 401, 'no token → 401 FolioApiError');
step('rest: no token → 401');

// The `folio` command from the same tarball.
const bin = fileURLToPath(new URL('../node_modules/.bin/folio', import.meta.url));
const run = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      bin,
      args,
      {
        env: {
          ...process.env,
          FOLIO_URL: baseUrl,
          FOLIO_TOKEN: token,
          FOLIO_CONFIG: join(tmpdir(), 'none.json'),
        },
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
const profiles = await run(['profiles', '--json']);
check(
  profiles.code === 0 && JSON.parse(profiles.stdout).some((p: Profile) => p.rfc === rfc),
  'folio profiles',
);
const dir = await mkdtemp(join(tmpdir(), 'folio-consumer-'));
await writeFile(join(dir, 'borrador.xml'), '<nota/>');
const imported = await run(['import', dir, '--profile', rfc]);
check(imported.code === 1 && /rechazados\s+1/.test(imported.stdout), 'folio import exits 1 with the summary');
const pending = await run(['pending', '--profile', rfc]);
check(pending.code === 0, 'folio pending');
step('cli: folio profiles / import / pending');

// Files: the export streamed to disk by the library, then by the bin (csv is on every plan).
const csv = await folio.rest.exports.invoices({ profileId: rfc, format: 'csv' });
const saved = await csv.saveTo(join(dir, csv.filename));
check(csv.filename === `facturas-${rfc}.csv` && saved.bytes >= 3, 'rest.exports.invoices saves the csv');
const xlsx = await folio.rest.exports.invoices({ format: 'xlsx' }).then(
  () => null,
  (e: unknown) => e,
);
check(
  xlsx === null || (xlsx instanceof FolioApiError && xlsx.status === 403),
  'xlsx: a file or the plan 403',
);
const exported = await run([
  'export',
  'invoices',
  '--profile',
  rfc,
  '--format',
  'csv',
  '-o',
  join(dir, 'x.csv'),
]);
check(exported.code === 0 && exported.stdout === `${join(dir, 'x.csv')}\n`, 'folio export');
step(`files: ${csv.filename} (${saved.bytes} bytes) and folio export`);
console.log('consumer: PASS');
