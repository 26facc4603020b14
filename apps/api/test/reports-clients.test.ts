// The tax reports through the SDK (rest.reports) and `folio report`, against this file's app
// in-process: a small March 2025 of a RESICO freelancer whose figures are worked out by hand below.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { createFolioRestClient, FolioApiError } from '@folio/sdk/rest';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The CLI is the package's bin, not one of its exports: run from its source, as cli.test.ts does.
import type { Io } from '../../../packages/sdk/src/cli/io';
import { runCli } from '../../../packages/sdk/src/cli/main';
import { CLIENT, imported, SUPPLIER } from './cfdi-helpers';
import {
  bearer,
  createProfile,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

const ANA: Party = { rfc: 'GOMA800101AB6', nombre: 'Ana Gómez', regimen: '626' };

let t: TestApp;
let pro: TestUser;
let free: TestUser;
let dir: string;

const fetchApp: typeof fetch = (input, init) => Promise.resolve(t.app.request(new Request(input, init)));
const sdk = (u: TestUser) =>
  createFolioRestClient({ baseUrl: 'http://folio.test', token: u.token, fetch: fetchApp });

/** `folio …` as a function: stdout and stderr captured, the terminal `columns` wide. */
async function folio(args: string[], u: TestUser, columns?: number) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (s: string) => (stdout += s), columns },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: process.stdin,
    env: { FOLIO_URL: 'http://folio.test', FOLIO_TOKEN: u.token, FOLIO_CONFIG: join(dir, 'none.json') },
    cwd: dir,
    fetch: fetchApp,
    now: () => 0,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

/** Ana, persona física in RESICO, with the same March on two accounts (PRO and FREE). */
async function anaWithMarch(u: TestUser) {
  const p = await createProfile(t, u, {
    nombre: ANA.nombre,
    rfc: ANA.rfc,
    tipo_persona: 'FISICA',
    regimenes_fiscales: ['626'],
  });
  const one = (importe: number) => [{ descripcion: 'Servicio', importe }];
  // Income: 10,000 + 16 % PUE (collected), 5,000 + 16 % PPD (not paid: pending at the month's end).
  await imported(
    t,
    u,
    p.id,
    invoiceXml({
      uuid: newUuid(),
      emisor: ANA,
      receptor: CLIENT,
      fecha: '2025-03-10T10:00:00',
      conceptos: one(10000),
    }),
  );
  await imported(
    t,
    u,
    p.id,
    invoiceXml({
      uuid: newUuid(),
      emisor: ANA,
      receptor: CLIENT,
      fecha: '2025-03-20T10:00:00',
      metodoPago: 'PPD',
      conceptos: one(5000),
    }),
  );
  // An expense: 2,000 + 16 % PUE (paid).
  await imported(
    t,
    u,
    p.id,
    invoiceXml({
      uuid: newUuid(),
      emisor: SUPPLIER,
      receptor: ANA,
      fecha: '2025-03-12T10:00:00',
      conceptos: one(2000),
    }),
  );
}

beforeAll(async () => {
  t = await startTestApp();
  dir = mkdtempSync(join(tmpdir(), 'folio-reports-clients-'));
  pro = await signUp(t);
  await setPlan(t, pro.id, 'PRO');
  free = await signUp(t);
  await anaWithMarch(pro);
  await anaWithMarch(free);
});
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// By hand: income 10,000 + 5,000 = 15,000, IVA 1,600 + 800 = 2,400, total 17,400; expenses 2,000,
// IVA 320, total 2,320. Cash: collected 10,000 (IVA 1,600), paid 2,000 (IVA 320). IVA 1,600 − 320 =
// 1,280 a cargo. Pending: the PPD invoice, 5,800. RESICO: 10,000 ≤ 25,000 → 1 %, ISR 100.00.
const MARCH = { profileId: ANA.rfc, año: 2025, mes: 3 };

describe('rest.reports (SDK)', () => {
  it('monthly() resolves to the report itself, typed, the same as the route’s data', async () => {
    const report = await sdk(pro).reports.monthly(MARCH);
    expect(report).toMatchObject({
      nivel: 'advanced',
      periodo: { año: 2025, mes: 3 },
      ingresos: { documentos: 2, subtotal: 15000, iva_trasladado: 2400, total: 17400 },
      egresos: { documentos: 1, subtotal: 2000, iva_trasladado: 320, total: 2320 },
      iva: { trasladado_cobrado: 1600, acreditable_pagado: 320, saldo: 1280, a_cargo: 1280, a_favor: 0 },
      pendientes: { por_cobrar: { documentos: 1, saldo: 5800 } },
      resico: { ingresos_cobrados: 10000, tasa: 1, isr_causado: 100, isr_a_pagar: 100 },
    });
    const res = await request(t, 'GET', `/api/reports/monthly?profileId=${ANA.rfc}&año=2025&mes=3`, {
      headers: bearer(pro.token),
    });
    expect(report).toEqual((await res.json()).data);
  });

  it('annual() and diot() resolve to their reports', async () => {
    const client = sdk(pro);
    const year = await client.reports.annual({ profileId: ANA.rfc, año: 2025 });
    expect(year.meses).toHaveLength(12);
    expect(year.totales.iva).toMatchObject({ a_cargo: 1280 });
    const diot = await client.reports.diot(MARCH);
    expect(diot.proveedores).toEqual([
      expect.objectContaining({
        rfc: SUPPLIER.rfc,
        tipo_tercero: '04',
        base_16: 2000,
        iva_16: 320,
        documentos: 1,
      }),
    ]);
  });

  it('FREE: annual() throws FolioApiError 403 with the plan’s message; monthly() has the basic sections only', async () => {
    const client = sdk(free);
    const err = await client.reports.annual({ profileId: ANA.rfc, año: 2025 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FolioApiError);
    expect(err).toMatchObject({
      status: 403,
      message:
        'The annual report requires the BASIC or PRO plan; upgrade with POST /api/subscription/create-checkout',
    });
    const basic = await client.reports.monthly(MARCH);
    expect(basic.nivel).toBe('basic');
    expect(basic.ingresos.total).toBe(17400);
    expect(basic).not.toHaveProperty('iva');
  });

  it('monthlyFile(): the server’s file when it serves the format, else its refusal as FolioApiError', async () => {
    for (const format of ['xlsx', 'pdf'] as const) {
      const direct = await request(
        t,
        'GET',
        `/api/reports/monthly?profileId=${ANA.rfc}&año=2025&mes=3&format=${format}`,
        {
          headers: bearer(pro.token),
        },
      );
      const got = await sdk(pro)
        .reports.monthlyFile({ ...MARCH, format })
        .catch((e: unknown) => e);
      if (direct.ok) {
        expect(got).not.toBeInstanceOf(Error);
        const file = got as Awaited<ReturnType<ReturnType<typeof sdk>['reports']['monthlyFile']>>;
        expect(file.contentType).toBe(direct.headers.get('content-type'));
        expect(file.filename).toBe(`reporte-mensual-${ANA.rfc}-2025-03.${format}`);
        // A workbook is a zip (PK); a PDF says so.
        const magic = new TextDecoder().decode((await file.bytes()).subarray(0, 4));
        expect(magic).toBe(format === 'xlsx' ? 'PK\u0003\u0004' : '%PDF');
      } else {
        const body = await direct.json();
        expect(got).toBeInstanceOf(FolioApiError);
        expect(got).toMatchObject({ status: direct.status, message: body.message });
      }
    }
  });
});

describe('folio report (CLI)', () => {
  it('prints the month as tables with the figures of the JSON, every section PRO serves', async () => {
    const res = await folio(
      ['report', '--profile', ANA.rfc.toLowerCase(), '--mes', '3', '--año', '2025'],
      pro,
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const out = res.stdout;
    expect(out).toMatch(/^Reporte mensual 03\/2025 · GOMA800101AB6 \(Ana Gómez\) · nivel avanzado$/m);
    expect(out).toMatch(/^documentos\s+2\s+1$/m);
    expect(out).toMatch(/^IVA trasladado\s+2,400\.00\s+320\.00$/m);
    expect(out).toMatch(/^total\s+17,400\.00\s+2,320\.00$/m);
    expect(out).toMatch(/^total\s+11,600\.00\s+2,320\.00$/m); // flujo: cobrado, pagado
    expect(out).toMatch(/^a cargo\s+1,280\.00$/m);
    expect(out).toMatch(/^por cobrar\s+1\s+5,800\.00$/m);
    expect(out).toMatch(/^COSC8001137NA\s+.+\s+2\s+17,400\.00\s+11,600\.00\s+5,800\.00$/m);
    expect(out).toMatch(/^tasa\s+1\.00 %$/m);
    expect(out).toMatch(/^ISR a pagar\s+100\.00$/m);
  });

  it('lists the report’s advertencias under their own heading (a month not over yet is open)', async () => {
    const año = String(new Date().getUTCFullYear() + 1);
    const res = await folio(['report', '--profile', ANA.rfc, '--mes', '1', '--año', año], pro);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(
      new RegExp(`\\n\\nAdvertencias\\n- el periodo ${año}-01 sigue abierto: las cifras pueden cambiar\\n$`),
    );
    // A closed month with nothing to say (no CFDI: none of unknown SAT status either) has no heading.
    expect(
      (await folio(['report', '--profile', ANA.rfc, '--mes', '7', '--año', '2024'], pro)).stdout,
    ).not.toContain('Advertencias');
  });

  it('--json prints the report’s JSON, nothing else', async () => {
    const res = await folio(['report', '--profile', ANA.rfc, '--mes', '3', '--año', '2025', '--json'], pro);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(await sdk(pro).reports.monthly(MARCH));
  });

  it('FREE: the month shows the basic sections only; the year (no --mes) is refused with the plan’s message, exit 1', async () => {
    const month = await folio(['report', '--profile', ANA.rfc, '--mes', '3', '--año', '2025'], free);
    expect(month.code, month.stderr).toBe(0);
    expect(month.stdout).toContain('nivel básico');
    expect(month.stdout).toMatch(/^total\s+17,400\.00\s+2,320\.00$/m);
    for (const absent of ['flujo', 'IVA\n', 'pendientes', 'RESICO', 'Por cliente'])
      expect(month.stdout).not.toContain(absent);

    const year = await folio(['report', '--profile', ANA.rfc, '--año', '2025'], free);
    expect(year.code).toBe(1);
    expect(year.stdout).toBe('');
    expect(year.stderr).toMatch(
      /^folio report: Forbidden \(403\): The annual report requires the BASIC or PRO plan; upgrade with POST \/api\/subscription\/create-checkout \[request [\w-]+\]\n$/,
    );
  });

  it('without --mes the year, month by month, with its totals; diot lists the suppliers paid', async () => {
    const year = await folio(['report', '--profile', ANA.rfc, '--año', '2025'], pro);
    expect(year.code, year.stderr).toBe(0);
    // mes, ingresos, egresos, cobrado, pagado; then mes, IVA a cargo, IVA a favor, ISR RESICO a pagar
    expect(year.stdout).toMatch(/^03\s+17,400\.00\s+2,320\.00\s+11,600\.00\s+2,320\.00$/m);
    expect(year.stdout).toMatch(/^03\s+1,280\.00\s+0\.00\s+100\.00$/m);
    expect(year.stdout).toMatch(/^total\s+17,400\.00\s+2,320\.00\s+11,600\.00\s+2,320\.00$/m);
    expect(year.stdout).toMatch(/^total\s+1,280\.00\s+0\.00\s+100\.00$/m);

    const diot = await folio(['report', 'diot', '--profile', ANA.rfc, '--año', '2025', '--mes', '3'], pro);
    expect(diot.code, diot.stderr).toBe(0);
    // Only the columns someone has: base and IVA at 16 %.
    expect(diot.stdout).toMatch(/^rfc\s+nombre\s+tipo\s+base 16 %\s+IVA 16 %\s+docs$/m);
    expect(diot.stdout).toMatch(/^EKU9003173C9\s+Escuela Kemper Urgate\s+04\s+2,000\.00\s+320\.00\s+1$/m);
  });

  it('fits the terminal width', async () => {
    for (const args of [['--mes', '3'], []]) {
      const res = await folio(['report', '--profile', ANA.rfc, '--año', '2025', ...args], pro, 80);
      const lines = res.stdout.split('\n').filter((l) => /\s{2}/.test(l) || /^─/.test(l));
      expect(lines.length).toBeGreaterThan(10);
      for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    }
  });

  it('--format xlsx without -o: the workbook under the server’s name where the command was typed; its IVA sheet holds the month’s a cargo', async () => {
    const res = await folio(
      ['report', '--profile', ANA.rfc, '--mes', '3', '--año', '2025', '--format', 'xlsx'],
      pro,
    );
    expect(res.code, res.stderr).toBe(0);
    const name = res.stdout.trim();
    expect(name).toMatch(/^reporte-mensual-GOMA800101AB6-2025-03\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(join(dir, name));
    const iva = wb.getWorksheet('IVA')!;
    const rows = iva.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows.some((r) => r.includes('IVA a cargo') && r.includes(1280))).toBe(true);
  });

  it('--format pdf -o FILE: the server’s file, or its refusal on stderr with exit 1 and no file', async () => {
    const target = join(dir, 'marzo.pdf');
    const res = await folio(
      ['report', '--profile', ANA.rfc, '--mes', '3', '--año', '2025', '--format', 'pdf', '-o', target],
      pro,
    );
    const direct = await request(
      t,
      'GET',
      `/api/reports/monthly?profileId=${ANA.rfc}&año=2025&mes=3&format=pdf`,
      {
        headers: bearer(pro.token),
      },
    );
    if (direct.ok) {
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe(`${target}\n`);
      expect(readFileSync(target).subarray(0, 5).toString()).toBe('%PDF-');
    } else {
      const body = await direct.json();
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`(${direct.status}): ${body.message}`);
      expect(existsSync(target)).toBe(false);
    }
  });

  it('bad command lines are exit 2 before any request', async () => {
    for (const [args, message] of [
      [['report', '--año', '2025'], '--profile RFC|id is required'],
      [['report', '--profile', ANA.rfc, '--mes', '3'], '--año is required'],
      [['report', 'diot', '--profile', ANA.rfc, '--año', '2025'], 'needs --mes'],
      [['report', '--profile', ANA.rfc, '--año', '2025', '--format', 'csv'], '--format must be xlsx or pdf'],
      [['report', '--profile', ANA.rfc, '--año', '2025', '-o', 'x.pdf'], '-o goes with --format'],
      [['report', 'weekly', '--profile', ANA.rfc, '--año', '2025'], 'unknown report "weekly"'],
    ] as const) {
      const res = await folio([...args], pro);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toContain(message);
    }
  });
});
