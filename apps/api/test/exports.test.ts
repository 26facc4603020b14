// GET /api/invoices/export and /api/expenses/export (plan-features §2): the files opened the way a
// user's tools open them (exceljs reads the workbook back, csv-parse the CSV), plan gating both ways
// and after a downgrade through the dev billing portal, and the 100,000-row limit.
import { MAX_EXPORT_ROWS } from '@folio/api';
import { withTurns } from '@folio/api/testing/event-loop';
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { cfdis } from '@folio/db/schema';
import { parse } from 'csv-parse/sync';
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelNowInPortal, subscribe } from './billing-helpers';
import { CLIENT, imported } from './cfdi-helpers';
import {
  bearer,
  createProfile,
  expectError,
  request,
  setPlan,
  signUp,
  signUpVerified,
  startTestApp,
  type TestApp,
  type TestUser,
  testConfig,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A taxpayer whose RFC holds Ñ and &, so the file name has to survive both. */
const OWNER: Party = { rfc: 'Ñ&A970701AB1', nombre: 'Ñandú & Asociados', regimen: '601' };
/** A client whose name holds a comma, a quote, an Ñ and an &: what breaks naive CSV. */
const TRICKY: Party = { rfc: 'PEÑ970701AB2', nombre: 'Peña, "El Güero" & Hijos', regimen: '601' };

async function owner(plan?: 'BASIC' | 'PRO') {
  const u = await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  const p = await createProfile(t, u, {
    nombre: OWNER.nombre,
    rfc: OWNER.rfc,
    tipo_persona: 'MORAL',
    regimenes_fiscales: ['601'],
  });
  return { u, p };
}

/** Three invoices: two in March 2025 (one in USD), one in April. */
async function invoices(u: TestUser, profileId: string) {
  const march = [
    { uuid: newUuid(), fecha: '2025-03-10T09:15:00', receptor: TRICKY, importe: 1000 },
    {
      uuid: newUuid(),
      fecha: '2025-03-20T18:30:05',
      receptor: CLIENT,
      importe: 250.5,
      moneda: 'USD',
      tipoCambio: 20.5,
    },
  ];
  for (const i of [
    ...march,
    { uuid: newUuid(), fecha: '2025-04-02T10:00:00', receptor: CLIENT, importe: 7 },
  ]) {
    await imported(
      t,
      u,
      profileId,
      invoiceXml({ ...i, emisor: OWNER, conceptos: [{ descripcion: 'Servicio', importe: i.importe }] }),
    );
  }
  return march;
}

const get = (u: TestUser, path: string) => request(t, 'GET', path, { headers: bearer(u.token) });

async function workbookOf(res: Response) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  return wb.worksheets[0]!;
}

const headerOf = (ws: ExcelJS.Worksheet) => (ws.getRow(1).values as unknown[]).slice(1);

/** The row's cells by header. */
function cellsOf(ws: ExcelJS.Worksheet, n: number): Record<string, ExcelJS.Cell> {
  const header = headerOf(ws) as string[];
  return Object.fromEntries(header.map((h, i) => [h, ws.getRow(n).getCell(i + 1)]));
}

describe('GET /api/invoices/export as xlsx', () => {
  it('one row per listed invoice, filters honoured, numbers and dates as typed cells, frozen header with filters', async () => {
    const { u, p } = await owner('PRO');
    const march = await invoices(u, p.id);
    const res = await get(u, `/api/invoices/export?profileId=${p.id}&año=2025&mes=3`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="facturas-N&A970701AB1-2025-03.xlsx"; filename*=UTF-8''facturas-%C3%91%26A970701AB1-2025-03.xlsx`,
    );
    const ws = await workbookOf(res);
    expect(ws.rowCount).toBe(1 + march.length); // April is filtered out
    expect(headerOf(ws)).toEqual([
      'UUID',
      'Fecha',
      'RFC emisor',
      'Nombre emisor',
      'Régimen emisor',
      'RFC receptor',
      'Nombre receptor',
      'Régimen receptor',
      'Tipo',
      'Tipo de comprobante',
      'Concepto',
      'Moneda',
      'Tipo de cambio',
      'Subtotal',
      'Descuento',
      'Tasa IVA %',
      'IVA',
      'Retención IVA',
      'Retención ISR',
      'Total',
      'Total MXN',
      'Estado de pago',
      'Pagado',
      'Saldo',
      'Estatus SAT',
      'Fecha de cancelación',
      'Válido',
      'Advertencias',
      'Errores',
    ]);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.autoFilter).toBeTruthy();

    // Newest first, as the listing.
    const usd = cellsOf(ws, 2);
    expect(usd.UUID!.value).toBe(march[1]!.uuid);
    expect(usd.Fecha!.type).toBe(ExcelJS.ValueType.Date);
    expect(usd.Fecha!.value).toEqual(new Date('2025-03-20T18:30:05Z'));
    expect(usd.Moneda!.value).toBe('USD');
    for (const [h, v] of [
      ['Tipo de cambio', 20.5],
      ['Subtotal', 250.5],
      ['IVA', 40.08],
      ['Total', 290.58],
      ['Total MXN', 5956.89],
    ] as const) {
      expect(usd[h]!.type, h).toBe(ExcelJS.ValueType.Number);
      expect(usd[h]!.value, h).toBe(v);
    }
    const tricky = cellsOf(ws, 3);
    expect(tricky['Nombre receptor']!.value).toBe(TRICKY.nombre);
    expect(tricky['RFC emisor']!.value).toBe(OWNER.rfc);
    expect(tricky['Estado de pago']!.value).toBe('PAGADO');
    expect(tricky.Pagado!.value).toBe(1160);
    expect(tricky.Saldo!.value).toBe(0);
    expect(tricky.Válido!.value).toBe('Sí');
  });

  it('a search and a profile given by RFC select the same rows as the listing', async () => {
    const { u, p } = await owner('BASIC');
    await invoices(u, p.id);
    const listed = await (await get(u, `/api/invoices?profileId=${p.id}&search=güero`)).json();
    expect(listed.pagination.total).toBe(1);
    const res = await get(u, `/api/invoices/export?profileId=${encodeURIComponent(OWNER.rfc)}&search=güero`);
    expect(res.status).toBe(200);
    const ws = await workbookOf(res);
    expect(ws.rowCount).toBe(2);
    expect(cellsOf(ws, 2).UUID!.value).toBe(listed.data[0].uuid);
  });

  it('bad filters answer 400 before any file, like the listing; an unknown parameter is named', async () => {
    const { u } = await owner('PRO');
    await expectError(await get(u, '/api/invoices/export?mes=13'), 400, 'Bad Request');
    await expectError(await get(u, '/api/invoices/export?format=pdf'), 400, 'Bad Request');
    const msg = await expectError(await get(u, '/api/invoices/export?month=3'), 400, 'Bad Request');
    expect(msg).toContain('`mes`');
  });
});

describe('GET /api/invoices/export as csv', () => {
  it('UTF-8 with a BOM, RFC 4180 quoting: a name with a comma, a quote, an Ñ and an & survives csv-parse', async () => {
    const { u, p } = await owner(); // FREE: csv is on every plan
    const march = await invoices(u, p.id);
    const res = await get(u, `/api/invoices/export?profileId=${p.id}&año=2025&mes=3&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain('filename="facturas-N&A970701AB1-2025-03.csv"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text).toContain('"Peña, ""El Güero"" & Hijos"');
    expect(text.split('\r\n')).toHaveLength(1 + march.length + 1); // CRLF records, ending in one
    const rows = parse(bytes, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.UUID)).toEqual([march[1]!.uuid, march[0]!.uuid]);
    expect(rows[1]).toMatchObject({
      'Nombre receptor': TRICKY.nombre,
      'RFC receptor': TRICKY.rfc,
      'RFC emisor': OWNER.rfc,
      Fecha: '2025-03-10T09:15:00',
      Total: '1160',
      'Estado de pago': 'PAGADO',
    });
  });
});

describe('plan gating (exportExcel)', () => {
  it('FREE: xlsx 403 naming the plans that include it; csv 200', async () => {
    const { u, p } = await owner();
    const res = await get(u, `/api/invoices/export?profileId=${p.id}`);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: 'Forbidden',
      message:
        'Excel export requires the BASIC or PRO plan; upgrade with POST /api/subscription/create-checkout',
      code: 'plan_required',
    });
    await expectError(await get(u, '/api/expenses/export'), 403, 'Forbidden');
    expect((await get(u, `/api/invoices/export?profileId=${p.id}&format=csv`)).status).toBe(200);
    expect((await get(u, '/api/expenses/export?format=csv')).status).toBe(200);
  });

  it.each(['BASIC', 'PRO'] as const)('%s: xlsx 200', async (plan) => {
    const { u } = await owner(plan);
    expect((await get(u, '/api/invoices/export')).status).toBe(200);
    expect((await get(u, '/api/expenses/export')).status).toBe(200);
  });

  it('a downgrade through the billing portal switches xlsx off at once; csv stays', async () => {
    const u = await signUpVerified(t);
    await subscribe(t, u, { plan: 'BASIC' });
    expect((await get(u, '/api/invoices/export')).status).toBe(200);

    await cancelNowInPortal(t, u);

    const res = await get(u, '/api/invoices/export');
    expect(await expectError(res, 403, 'Forbidden')).toBe(
      'Excel export requires the BASIC or PRO plan; upgrade with POST /api/subscription/create-checkout',
    );
    expect((await get(u, '/api/invoices/export?format=csv')).status).toBe(200);
  });
});

describe('GET /api/expenses/export', () => {
  it('received CFDI and manual expenses, with the listing’s own filters (categoria)', async () => {
    const { u, p } = await owner('PRO');
    const received = newUuid();
    await imported(
      t,
      u,
      p.id,
      invoiceXml({ uuid: received, fecha: '2025-03-05T08:00:00', emisor: TRICKY, receptor: OWNER }),
    );
    const period = await request(t, 'POST', '/api/periods', {
      headers: bearer(u.token),
      body: { profile_id: p.id, año: 2025, mes: 3 },
    });
    const manual = await request(t, 'POST', '/api/accrued-expenses', {
      headers: bearer(u.token),
      body: {
        profile_id: p.id,
        period_id: (await period.json()).data.id,
        concept: 'Papelería, "fina"',
        categoria: 'oficina',
        subtotal: 100,
        fecha: '2025-03-14',
        type: 'manual',
      },
    });
    expect(manual.status).toBe(201);

    const all = await get(u, `/api/expenses/export?profileId=${p.id}&año=2025&mes=3`);
    expect(all.headers.get('content-disposition')).toContain('filename="gastos-N&A970701AB1-2025-03.xlsx"');
    const ws = await workbookOf(all);
    expect(ws.rowCount).toBe(3);
    const m = cellsOf(ws, 2);
    expect(m.Origen!.value).toBe('MANUAL');
    expect(m.Fecha!.value).toEqual(new Date('2025-03-14T00:00:00Z'));
    expect(m.Total!.value).toBe((await manual.json()).data.total);
    expect(m.Categoría!.value).toBe('oficina');
    const x = cellsOf(ws, 3);
    expect(x).toMatchObject({ Origen: { value: 'XML' }, UUID: { value: received } });
    expect(x['Nombre emisor']!.value).toBe(TRICKY.nombre);

    const csv = await get(u, `/api/expenses/export?profileId=${p.id}&categoria=oficina&format=csv`);
    const rows = parse(new Uint8Array(await csv.arrayBuffer()), { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ Origen: 'MANUAL', Concepto: 'Papelería, "fina"' });
  });
});

describe('streamed in keyset pages', () => {
  /** A profile with one imported invoice and `n` copies of it over 28 days of March 2025. */
  async function withCopies(n: number) {
    const { u, p } = await owner('PRO');
    const seed = newUuid();
    await imported(
      t,
      u,
      p.id,
      invoiceXml({ uuid: seed, fecha: '2025-03-01T10:00:00', emisor: OWNER, receptor: CLIENT }),
    );
    // Many copies share a fecha, so the id breaks ties across page edges.
    const cols = Object.values(getTableColumns(cfdis))
      .filter((c) => !c.generated)
      .map((c) => c.name);
    const pick = cols.map((n) =>
      n === 'id'
        ? sql`${seed} || '-' || g`
        : n === 'uuid'
          ? sql`upper(md5(${seed} || g))`
          : n === 'fecha'
            ? sql`'2025-03-' || lpad((g % 28 + 1)::text, 2, '0') || 'T10:00:00'`
            : sql`${sql.identifier(n)}`,
    );
    const list = (names: (string | SQL)[]) =>
      sql.join(
        names.map((n) => (typeof n === 'string' ? sql.identifier(n) : n)),
        sql`, `,
      );
    await t.handle.db.execute(
      sql`insert into cfdis (${list(cols)}) select ${list(pick)} from cfdis cross join generate_series(1, ${n}) g where uuid = ${seed}`,
    );
    return { u, p };
  }

  it('an export longer than one page holds every row once, newest first', async () => {
    const { u, p } = await withCopies(2100);
    const res = await get(u, `/api/invoices/export?profileId=${p.id}&format=csv`);
    const rows = parse(await res.text(), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2101);
    expect(new Set(rows.map((r) => r.UUID)).size).toBe(2101);
    const fechas = rows.map((r) => r.Fecha!);
    expect(fechas).toEqual([...fechas].sort().reverse());
  });

  it('an export gives the event loop back every 200 rows, so other requests are served while it is written', async () => {
    const { u, p } = await withCopies(2100);
    const { turns } = await withTurns(async () => {
      const res = await get(u, `/api/invoices/export?profileId=${p.id}&format=csv`);
      await res.text();
    });
    // 2,101 rows in pages of 1,000: a turn after rows 200, 400, 600 and 800 of each full page = 2 × 4.
    // (CSV: its stringifier never waits, so these turns are the export's own; xlsx also waits for its deflater.)
    expect(turns).toBeGreaterThanOrEqual(2 * 4);
  });
});

describe('size limit', () => {
  it('is 100,000 rows', () => expect(MAX_EXPORT_ROWS).toBe(100_000));

  it('more matching rows than the limit → 400 asking to narrow the filters, counted before any file', async () => {
    // The same app with the limit lowered to 2, so three invoices exceed it without seeding 100,001.
    const small = await startTestApp({ config: { ...testConfig, maxExportRows: 2 } });
    try {
      const u = await signUp(small);
      const p = await createProfile(small, u, {
        nombre: OWNER.nombre,
        rfc: OWNER.rfc,
        tipo_persona: 'MORAL',
      });
      for (const fecha of ['2025-03-01T10:00:00', '2025-03-02T10:00:00', '2025-04-01T10:00:00']) {
        await imported(
          small,
          u,
          p.id,
          invoiceXml({ uuid: newUuid(), fecha, emisor: OWNER, receptor: CLIENT }),
        );
      }
      const res = await request(small, 'GET', `/api/invoices/export?profileId=${p.id}&format=csv`, {
        headers: bearer(u.token),
      });
      expect(await expectError(res, 400, 'Bad Request')).toBe(
        'The filters match 3 documents; an export holds at most 2: narrow them (profileId, año, mes, search…)',
      );
      const narrowed = await request(
        small,
        'GET',
        `/api/invoices/export?profileId=${p.id}&mes=3&format=csv`,
        {
          headers: bearer(u.token),
        },
      );
      expect(narrowed.status).toBe(200);
      expect(parse(await narrowed.text(), { bom: true, columns: true })).toHaveLength(2);
    } finally {
      await small.close();
    }
  });
});
