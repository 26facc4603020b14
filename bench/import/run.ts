// bench/import: 10,000 generated CFDI for one profile (income PUE/PPD, expenses, partial and settling
// payment complements) as two ZIPs of 5,000, each its own multipart request (an upload holds at most
// 5,000 files), to the real server (apps/api/src/main.ts as a child process), on PGlite and, when
// TEST_DATABASE_URL is set (as scripts/with-postgres.sh does), on PostgreSQL. Two ways a client may
// send them, each into its own account: one request after the other, then both at once; first a
// warm-up import of a tenth (at most 500 documents) into a third account, not counted. Baseline in the same run: the same documents
// unzipped, parsed, classified and validated in-process with @folio/cfdi alone (no HTTP, no
// database): the ceiling an importer could reach on one core. Targets: ≥ 1,000 docs/s on PostgreSQL,
// ≥ 500 on PGlite (the one-after-the-other figure). DOCS=n scales the dataset's mix down (small runs
// to compare before/after; still two ZIPs); CPU_PROF=dir profiles each server (node --cpu-prof) and prints its top self-time functions.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { classifyCfdi, DEFAULT_VALIDATION_FLAGS, parseCfdi, validateCfdi } from '@folio/cfdi';
import { openDb } from '@folio/db';
import { subscriptions } from '@folio/db/schema';
import { strToU8, unzipSync, zipSync } from 'fflate';
import postgres from 'postgres';
import { printCpuProfile } from '../lib/cpuprofile';
import { cpuMs, postgresCpuMs } from '../lib/proc';
import { api, type Child, rawRequest, signIn, startFolio } from '../lib/server';
import { machine } from '../lib/stats';
import { buildDataset, createProfile, MIX, type Mix, PROFILE, total } from './dataset';

const TARGET_PG = 1000;
const TARGET_PGLITE = 500;
const CPU_PROF = process.env.CPU_PROF;
const SCALE = Number(process.env.DOCS ?? total(MIX)) / total(MIX);
const mix = Object.fromEntries(
  Object.entries(MIX).map(([k, n]) => [k, Math.round(n * SCALE)]),
) as unknown as Mix;
const ZIPS = 2;
const FLAGS = DEFAULT_VALIDATION_FLAGS;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rate = (n: number, ms: number) => n / (ms / 1000);

console.log(`bench/import on ${machine()}; load average ${load()}`);
const { docs, expect } = buildDataset(mix);
if (docs.length !== total(mix)) throw new Error(`dataset has ${docs.length} documents`);
const PER_ZIP = Math.ceil(docs.length / ZIPS);
const zips: Uint8Array[] = [];
for (let i = 0; i < docs.length; i += PER_ZIP) {
  zips.push(zipSync(Object.fromEntries(docs.slice(i, i + PER_ZIP).map((d) => [d.name, strToU8(d.xml)]))));
}
const xmlBytes = docs.reduce((s, d) => s + Buffer.byteLength(d.xml), 0);
type Upload = { contentType: string; body: Uint8Array };
async function multipart(zip: Uint8Array, name: string): Promise<Upload> {
  const form = new FormData();
  form.append('files', new File([new Uint8Array(zip)], name, { type: 'application/zip' }));
  const res = new Response(form);
  return { contentType: res.headers.get('content-type')!, body: new Uint8Array(await res.arrayBuffer()) };
}
/** One multipart request per ZIP. */
const uploads = await Promise.all(zips.map((z, i) => multipart(z, `lote-${i + 1}.zip`)));
/**
 * Imported first into an account of its own and not counted, as the baseline's warm-up run: a server
 * that has been up a while has its code compiled and loaded.
 */
const WARM_UP = Math.min(500, Math.ceil(docs.length / 10));
const warmUp = await multipart(
  zipSync(Object.fromEntries(docs.slice(0, WARM_UP).map((d) => [d.name, strToU8(d.xml)]))),
  'calentamiento.zip',
);
const uploadBytes = uploads.reduce((s, u) => s + u.body.byteLength, 0);
const count = (k: string) => docs.filter((d) => d.kind === k).length;
console.log(
  `${docs.length} CFDI (${count('income')} income: ${mix.incomePue} PUE + ${mix.incomePpd} PPD; ${count('expense')} expenses; ` +
    `${count('payment')} payment complements), ${(xmlBytes / 1e6).toFixed(1)} MB of XML in ${zips.length} ZIPs of ` +
    `${PER_ZIP}, one request each (${(uploadBytes / 1e6).toFixed(1)} MB multipart)`,
);

// ---- baseline: unzip + parse + classify + validate in-process, one core, no database ----
function baseline(): number {
  let n = 0;
  for (const zip of zips) {
    for (const bytes of Object.values(unzipSync(zip))) {
      const parsed = parseCfdi(bytes);
      if (!parsed.ok) throw new Error(parsed.reason);
      const side = classifyCfdi(parsed.cfdi, PROFILE.rfc);
      if ('error' in side) throw new Error(side.error);
      const v = validateCfdi(
        parsed.cfdi,
        { rfc: PROFILE.rfc, regimenesFiscales: [PROFILE.regimen], flags: FLAGS },
        { side: side.side, duplicateUuid: false },
      );
      if (!v.valido) throw new Error(v.errores.join('; '));
      n++;
    }
  }
  return n;
}
baseline(); // warm-up: JIT
const b0 = performance.now();
const baselineDocs = baseline();
const baselineMs = performance.now() - b0;
const baselineRate = rate(baselineDocs, baselineMs);
console.log(
  `\nbaseline (in-process unzip + parseCfdi + classifyCfdi + validateCfdi, no HTTP/DB): ` +
    `${baselineDocs} docs in ${secs(baselineMs)} = ${baselineRate.toFixed(0)} docs/s`,
);

// ---- the real server ----
interface ImportReport {
  imported: number;
  duplicates: number;
  rejected: number;
  files: { name: string; status: string; uuid?: string; id?: string; error?: string }[];
}

type Backend = {
  label: string;
  /** Short name: the CPU profile's folder under CPU_PROF. */
  name: string;
  env: Record<string, string>;
  /** Puts the users on PRO; may restart the server (PGlite is single-process). */
  setPro(server: Child, userIds: string[]): Promise<Child>;
  cleanup(): void;
};

function pgliteBackend(): Backend {
  // The subscription row has to be written from outside the server, which PGlite's memory:// does
  // not allow; a data directory on tmpfs (/dev/shm) is the closest thing to it.
  const parent = mkdtempSync(join(os.platform() === 'linux' ? '/dev/shm' : os.tmpdir(), 'folio-bench-'));
  const dir = join(parent, 'pglite');
  return {
    label: `PGlite (data dir on tmpfs ${parent})`,
    name: 'pglite',
    env: { PGLITE_DATA_DIR: dir },
    async setPro(server, userIds) {
      await server.stop();
      const h = await openDb({ pgliteDataDir: dir });
      await h.db
        .insert(subscriptions)
        .values(userIds.map((userId) => ({ userId, plan: 'PRO' as const, status: 'ACTIVE' as const })));
      await h.close();
      return startFolio({ PGLITE_DATA_DIR: dir, TRUST_PROXY: 'true' }, profiling('pglite'));
    },
    cleanup: () => rmSync(parent, { recursive: true, force: true }),
  };
}

function postgresBackend(url: string): Backend {
  return {
    label: `PostgreSQL (${url.replace(/\/\/[^@]*@/, '//')})`,
    name: 'postgres',
    env: { DATABASE_URL: url },
    async setPro(server, userIds) {
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      for (const userId of userIds)
        await sql`insert into subscriptions (user_id, plan, status) values (${userId}, 'PRO', 'ACTIVE')`;
      await sql.end();
      return server;
    },
    cleanup: () => {},
  };
}

/** An account with the profile, put on PRO by the backend. */
interface Account {
  token: string;
  userId: string;
  profileId: string;
}

async function account(server: Child, n: number): Promise<Account> {
  const { token, userId } = await signIn(server.url, `bench-${Date.now()}-${n}@example.com`, '10.9.0.1');
  return { token, userId, profileId: await createProfile(server.url, token) };
}

/** The ZIPs one request after the other, or all at once; the reports merged in file order. */
async function importAll(
  server: Child,
  to: Account,
  sent: Upload[],
  together: boolean,
): Promise<ImportReport> {
  const send = async (u: Upload) => {
    const res = await rawRequest(
      `${server.url}/api/profiles/${to.profileId}/cfdi`,
      'POST',
      { authorization: `Bearer ${to.token}`, 'content-type': u.contentType },
      u.body,
    );
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.text.slice(0, 500)}`);
    return (JSON.parse(res.text) as { data: ImportReport }).data;
  };
  const reports: ImportReport[] = [];
  if (together) reports.push(...(await Promise.all(sent.map(send))));
  else for (const u of sent) reports.push(await send(u));
  return {
    imported: reports.reduce((s, r) => s + r.imported, 0),
    duplicates: reports.reduce((s, r) => s + r.duplicates, 0),
    rejected: reports.reduce((s, r) => s + r.rejected, 0),
    files: reports.flatMap((r) => r.files),
  };
}

/** Imports the dataset into the account, prints the figures and checks what was stored; docs/s. */
async function measure(server: Child, b: Backend, to: Account, together: boolean): Promise<number> {
  console.log(`\n-- ${uploads.length} requests ${together ? 'at once' : 'one after the other'}`);
  const loadBefore = load();
  const pgData = b.env.DATABASE_URL ? process.env.PG_TEST_DATA : undefined;
  const [cpu0, pg0] = [cpuMs(server.pid), postgresCpuMs(pgData)];
  const t0 = performance.now();
  const report = await importAll(server, to, uploads, together);
  const wall = performance.now() - t0;
  const [cpu, pg] = [cpuMs(server.pid) - cpu0, postgresCpuMs(pgData) - pg0];
  const docsPerSec = rate(report.imported, wall);
  console.log(
    `import: ${report.imported} imported, ${report.duplicates} duplicate, ${report.rejected} rejected in ${secs(wall)} ` +
      `= ${docsPerSec.toFixed(0)} docs/s  (${(xmlBytes / 1e6 / (wall / 1000)).toFixed(2)} MB/s of XML; ` +
      `load average before ${loadBefore}, after ${load()})`,
  );
  console.log(
    `CPU per document: server ${(cpu / docs.length).toFixed(2)} ms${pgData ? `, PostgreSQL ${(pg / docs.length).toFixed(2)} ms` : ' (PGlite runs inside it)'}; ` +
      `wall per document ${(wall / docs.length).toFixed(2)} ms`,
  );
  const firstRejected = report.files.find((f) => f.status === 'rejected');
  if (firstRejected) console.log(`  first rejection: ${firstRejected.name}: ${firstRejected.error}`);

  // Verify what was stored, through the API.
  const totalOf = async (path: string) =>
    (
      await api<{ pagination: { total: number } }>(
        server.url,
        'GET',
        `${path}?profileId=${to.profileId}&limit=1`,
        { token: to.token },
      )
    ).pagination.total;
  const [invoices, expenses] = [await totalOf('/api/invoices'), await totalOf('/api/expenses')];
  const idOf = new Map(report.files.map((f) => [f.uuid, f.id]));
  const estado = async (uuid: string) =>
    (
      await api<{ estadoPago?: { estado: string } }>(server.url, 'GET', `/api/invoices/${idOf.get(uuid)}`, {
        token: to.token,
      })
    ).estadoPago?.estado;
  const states = async (uuids: string[], want: string) => {
    const got = await Promise.all(uuids.map(estado));
    return got.filter((s) => s === want).length;
  };
  const [paid, partial, unpaid] = [
    await states(expect.paid, 'PAGADO'),
    await states(expect.partial, 'PAGO_PARCIAL'),
    await states(expect.unpaid, 'NO_PAGADO'),
  ];
  const ok =
    report.imported === docs.length &&
    report.rejected === 0 &&
    report.duplicates === 0 &&
    invoices === expect.invoices &&
    expenses === expect.expenses &&
    paid === expect.paid.length &&
    partial === expect.partial.length &&
    unpaid === expect.unpaid.length;
  console.log(
    `verify: GET /api/invoices total ${invoices} (want ${expect.invoices}), GET /api/expenses total ${expenses} ` +
      `(want ${expect.expenses}); payment state spot-check PAGADO ${paid}/${expect.paid.length}, ` +
      `PAGO_PARCIAL ${partial}/${expect.partial.length}, NO_PAGADO ${unpaid}/${expect.unpaid.length}: ${ok ? 'OK' : 'MISMATCH'}`,
  );
  console.log(
    `ratio to the in-process baseline: ${(docsPerSec / baselineRate).toFixed(3)}× (${docsPerSec.toFixed(0)} / ${baselineRate.toFixed(0)} docs/s)`,
  );
  if (!ok) process.exitCode = 1;
  return docsPerSec;
}

/** Both ways of sending, each into a fresh account; the one-after-the-other rate is the target's. */
async function run(b: Backend) {
  console.log(`\n== ${b.label}`);
  let server = await startFolio({ ...b.env, TRUST_PROXY: 'true' }, profiling(b.name));
  try {
    const [warm, oneByOne, atOnce] = [
      await account(server, 0),
      await account(server, 1),
      await account(server, 2),
    ];
    server = await b.setPro(server, [warm.userId, oneByOne.userId, atOnce.userId]);
    const t0 = performance.now();
    const warmed = await importAll(server, warm, [warmUp], false);
    console.log(
      `warm-up (not counted): ${warmed.imported} documents into another account in ${secs(performance.now() - t0)}`,
    );
    const sequential = await measure(server, b, oneByOne, false);
    await measure(server, b, atOnce, true);
    return sequential;
  } catch (err) {
    console.error(`server output:\n${server.tail()}`);
    throw err;
  } finally {
    await server.stop();
    b.cleanup();
    if (CPU_PROF)
      printCpuProfile(join(CPU_PROF, b.name), `${b.label}: server CPU profile (whole process life)`);
  }
}

/** node --cpu-prof into CPU_PROF/<backend> (the largest profile there is the importing server's). */
function profiling(name: string): string[] {
  return CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(CPU_PROF, name)}`] : [];
}

const targetLine = (where: string, target: number, got: number) =>
  `target ≥ ${target} docs/s on ${where}: ${got >= target ? 'met' : 'NOT met'} (${got.toFixed(0)} docs/s)`;
const pgliteRate = await run(pgliteBackend());
console.log(`\n${targetLine('PGlite', TARGET_PGLITE, pgliteRate)}`);
const url = process.env.TEST_DATABASE_URL;
if (url) {
  const pgRate = await run(postgresBackend(url));
  console.log(`\n${targetLine('PostgreSQL', TARGET_PG, pgRate)}`);
} else {
  console.log('\nTEST_DATABASE_URL not set: PostgreSQL skipped (run via scripts/with-postgres.sh)');
}
console.log(`load average at the end ${load()}`);
