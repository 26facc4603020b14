// The SDK's file helpers (rest.exports) against this file's app, in-process: what they download is
// opened the way a user's tools open it (exceljs, csv-parse), refusals are FolioApiError.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { createFolioRestClient, type DownloadProgress, FolioApiError } from '@folio/sdk/rest';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, imported } from './cfdi-helpers';
import {
  createProfile,
  setPlan,
  signUp,
  signUpVerified,
  startTestApp,
  type TestApp,
  testConfig,
} from './harness';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await startTestApp();
  dir = mkdtempSync(join(tmpdir(), 'folio-sdk-downloads-'));
});
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A taxpayer whose RFC holds Ñ and &: the file name must come through exactly. */
const OWNER: Party = { rfc: 'Ñ&A970701AB1', nombre: 'Ñandú & Asociados', regimen: '601' };
/** A counterpart whose name breaks naive CSV: a comma, a quote, an Ñ and an &. */
const TRICKY: Party = { rfc: 'PEÑ970701AB2', nombre: 'Peña, "El Güero" & Hijos', regimen: '601' };

const rest = (credential: { token?: string; apiKey?: string }, app: TestApp = t) =>
  createFolioRestClient({
    baseUrl: 'http://folio.test',
    ...credential,
    headers: { 'x-forwarded-for': `10.8.${Math.floor(Math.random() * 250)}.1` },
    fetch: (input, init) => Promise.resolve(app.app.request(new Request(input, init))),
  });

/** A user (FREE unless a plan is given) with OWNER's profile: two invoices in March 2025, one in April, one expense from TRICKY. */
async function owner(plan?: 'BASIC' | 'PRO', app: TestApp = t) {
  const u = plan ? await signUpVerified(app) : await signUp(app);
  if (plan) await setPlan(app, u.id, plan);
  const p = await createProfile(app, u, { nombre: OWNER.nombre, rfc: OWNER.rfc, tipo_persona: 'MORAL' });
  const march = [newUuid(), newUuid()] as const;
  const ids: string[] = [];
  for (const [uuid, fecha, receptor] of [
    [march[0], '2025-03-10T09:15:00', TRICKY],
    [march[1], '2025-03-20T18:30:05', CLIENT],
    [newUuid(), '2025-04-02T10:00:00', CLIENT],
  ] as const) {
    ids.push(await imported(app, u, p.id, invoiceXml({ uuid, fecha, emisor: OWNER, receptor })));
  }
  const expense = newUuid();
  const expenseId = await imported(
    app,
    u,
    p.id,
    invoiceXml({ uuid: expense, fecha: '2025-03-05T08:00:00', emisor: TRICKY, receptor: OWNER }),
  );
  return { u, p, march, ids, expense, expenseId };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('it resolved'),
    (e: unknown) => e,
  );

describe('rest.exports (SDK)', () => {
  it('invoices(): the filtered listing as xlsx under the server’s exact file name, progress counted as the body is read', async () => {
    const { u, march } = await owner('PRO');
    const seen: DownloadProgress[] = [];
    const file = await rest({ token: u.token }).exports.invoices(
      { profileId: OWNER.rfc, año: 2025, mes: 3, format: 'xlsx' },
      { onProgress: (p) => seen.push(p) },
    );
    expect(file.filename).toBe('facturas-Ñ&A970701AB1-2025-03.xlsx');
    expect(file.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(file.size).toBeNull(); // streamed as written: no Content-Length
    const bytes = await file.bytes();
    expect(seen.at(-1)).toEqual({ bytes: bytes.byteLength });
    expect(seen.map((p) => p.bytes)).toEqual([...seen.map((p) => p.bytes)].sort((a, b) => a - b));

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes.buffer as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(1 + march.length); // April filtered out
    const uuids = ws.getColumn(1).values.slice(2);
    expect(uuids).toEqual([march[1], march[0]]);
  });

  it('expenses() with an API key: the csv parses back with the comma, the quote, the Ñ and the &', async () => {
    const { u, expense } = await owner('BASIC');
    const { data } = await rest({ token: u.token }).POST('/api-keys', {
      body: { name: 'exports', scope: 'read' },
    });
    const file = await rest({ apiKey: data.data.key }).exports.expenses({ año: 2025, format: 'csv' });
    expect(file.filename).toBe('gastos-todos-2025.csv');
    expect(file.contentType).toBe('text/csv; charset=utf-8');
    const rows = parse(await file.text(), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      UUID: expense,
      'Nombre emisor': TRICKY.nombre,
      'RFC emisor': TRICKY.rfc,
    });
  });

  it('saveTo() streams the file to disk and leaves no temporary file beside it', async () => {
    const { u } = await owner('PRO');
    const folder = mkdtempSync(join(dir, 'save-'));
    const target = join(folder, 'marzo.xlsx');
    const file = await rest({ token: u.token }).exports.invoices({ año: 2025, mes: 3 });
    const saved = await file.saveTo(target);
    expect(saved).toEqual({ path: target, bytes: readFileSync(target).byteLength });
    expect(readdirSync(folder)).toEqual(['marzo.xlsx']);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(target);
    expect(wb.worksheets[0]!.rowCount).toBe(3);
  });

  it('FREE: xlsx throws FolioApiError 403 with the server’s message naming the plans; csv downloads', async () => {
    const { u } = await owner();
    const client = rest({ token: u.token });
    const err = await refusal(client.exports.invoices({ año: 2025 }));
    expect(err).toBeInstanceOf(FolioApiError);
    expect(err).toMatchObject({
      status: 403,
      error: 'Forbidden',
      message:
        'Excel export requires the BASIC or PRO plan; upgrade with POST /api/subscription/create-checkout',
      code: 'plan_required',
    });
    expect(await refusal(client.exports.expenses({ format: 'xlsx' }))).toMatchObject({ status: 403 });
    const csv = await client.exports.invoices({ año: 2025, format: 'csv' });
    expect(parse(await csv.text(), { bom: true, columns: true })).toHaveLength(3);
  });

  it('a bad filter throws FolioApiError 400 naming the field', async () => {
    const { u } = await owner('PRO');
    const err = await refusal(rest({ token: u.token }).exports.invoices({ mes: 13, format: 'csv' }));
    expect(err).toBeInstanceOf(FolioApiError);
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((err as FolioApiError).fields.map((f) => f.path)).toContain('mes');
  });

  it('invoicePdf(id): the printed CFDI, income or expense, under the server’s name; pdftotext finds its UUID and both RFCs', async () => {
    const { u, march, ids, expense, expenseId } = await owner('BASIC');
    const client = rest({ token: u.token });
    for (const [id, uuid, other] of [
      [ids[0]!, march[0], TRICKY.rfc],
      [expenseId, expense, TRICKY.rfc],
    ] as const) {
      const seen: DownloadProgress[] = [];
      const pdf = await client.exports.invoicePdf(id, { onProgress: (p) => seen.push(p) });
      expect(pdf.contentType).toMatch(/^application\/pdf/);
      expect(pdf.filename).toMatch(new RegExp(`${uuid}\\.pdf$`, 'i'));
      const target = join(dir, `${uuid}.pdf`);
      const { bytes } = await pdf.saveTo(target);
      expect(seen.at(-1)?.bytes).toBe(bytes);
      expect(readFileSync(target).subarray(0, 5).toString()).toBe('%PDF-');
      const text = execFileSync('pdftotext', ['-layout', target, '-'], { encoding: 'utf8' });
      expect(text.toUpperCase()).toContain(uuid.toUpperCase());
      expect(text).toContain(OWNER.rfc);
      expect(text).toContain(other);
    }
  });

  it('invoicePdf: FREE → FolioApiError 403 naming the plans; an unknown id → 404', async () => {
    const { u, ids } = await owner();
    const client = rest({ token: u.token });
    const refused = await refusal(client.exports.invoicePdf(ids[0]!));
    expect(refused).toBeInstanceOf(FolioApiError);
    expect(refused).toMatchObject({ status: 403, error: 'Forbidden', code: 'plan_required' });
    expect((refused as FolioApiError).message).toMatch(/BASIC or PRO/);

    const paying = await owner('PRO');
    const missing = await refusal(
      rest({ token: paying.u.token }).exports.invoicePdf('00000000-0000-4000-8000-000000000000'),
    );
    expect(missing).toMatchObject({ status: 404, error: 'Not Found' });
  });

  it('more rows than an export holds throws FolioApiError 400 asking to narrow the filters', async () => {
    const small = await startTestApp({ config: { ...testConfig, maxExportRows: 2 } });
    try {
      const { u } = await owner('PRO', small);
      const client = rest({ token: u.token }, small);
      const err = await refusal(client.exports.invoices({ format: 'csv' }));
      expect(err).toBeInstanceOf(FolioApiError);
      expect(err).toMatchObject({ status: 400, error: 'Bad Request', code: 'export_too_large' });
      expect((err as FolioApiError).message).toMatch(/^The filters match 3 documents; .*narrow them/);
      const narrowed = await client.exports.invoices({ mes: 3, format: 'csv' });
      expect(parse(await narrowed.text(), { bom: true, columns: true })).toHaveLength(2);
    } finally {
      await small.close();
    }
  });
});
