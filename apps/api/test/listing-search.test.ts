import type { Party } from '@folio/cfdi/testing';
import { invoiceXml } from '@folio/cfdi/testing';
import { copyCfdi } from '@folio/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imported, ME, profileOfMe } from './cfdi-helpers';
import { bearer, caller, request, startTestApp, type TestApp, type TestUser } from './harness';

// The search rules of the invoice and expense listings (issue 30, docs/contract.md#search), each
// asked over HTTP and through the tRPC caller, which must answer alike: RFC and UUID fragments from
// the start of the RFC, the UUID or its last block; words whole or from their start; and the total
// exact up to 1,000 matches, a lower bound (totalExact false) past them.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Listing = 'invoices' | 'expenses';
type Query = { search: string; page?: number; limit?: number };

/** One listing page over HTTP and through the caller, checked equal. */
async function listed(u: TestUser, listing: Listing, q: Query) {
  const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]));
  const res = await request(t, 'GET', `/api/${listing}?${qs}`, { headers: bearer(u.token) });
  expect(res.status).toBe(200);
  const http = (await res.json()) as { data: { id: string }[]; pagination: Record<string, unknown> };
  const procedures = caller(t, u.token);
  const trpc = await (listing === 'invoices' ? procedures.invoices.list(q) : procedures.expenses.list(q));
  expect(trpc.data.map((r) => r.id)).toEqual(http.data.map((r) => r.id));
  expect(trpc.pagination).toEqual(http.pagination);
  return http;
}

const FERRE: Party = { rfc: 'FEHE850312AB1', nombre: 'Ferretería Hernández', regimen: '612' };
const SURESTE: Party = { rfc: 'CSÑ900101AB2', nombre: 'Constructora del Sureste', regimen: '601' };
const REYES: Party = { rfc: 'RERJ700101HM3', nombre: 'Juan Reyes Ramírez', regimen: '612' };
const SUPPLIER: Party = { rfc: 'EKU9003173C9', nombre: 'Escuela Kemper Urgate', regimen: '601' };
const FERRE_UUID = '5E1F0A2B-7C3D-4E5F-8A9B-1C2D3E4F5A6B';

describe('what a listing search matches', () => {
  let u: TestUser;
  const ids: Record<string, string> = {};
  const found = async (search: string, listing: Listing = 'invoices') =>
    (await listed(u, listing, { search })).data.map((r) => r.id).sort();

  beforeAll(async () => {
    const me = await profileOfMe(t);
    u = me.u;
    const put = (uuid: string, emisor: Party, receptor: Party, descripcion: string, fecha: string) =>
      imported(
        t,
        u,
        me.p.id,
        invoiceXml({ uuid, emisor, receptor, fecha, conceptos: [{ descripcion, importe: 100 }] }),
      );
    ids.ferre = await put(FERRE_UUID, ME, FERRE, 'Tornillería y herrajes', '2025-03-01T10:00:00');
    ids.sureste = await put(
      '0B9A8C7D-6E5F-4A3B-9C2D-E1F0A9B8C7D6',
      ME,
      SURESTE,
      'Cemento gris 50 kg',
      '2025-03-02T10:00:00',
    );
    ids.reyes = await put(
      'D4C3B2A1-0F9E-4D8C-B7A6-F5E4D3C2B1A0',
      ME,
      REYES,
      'Servicios de consultoría',
      '2025-03-03T10:00:00',
    );
    ids.expense = await put(
      'C0FFEE00-1234-4567-89AB-CDEF01234567',
      SUPPLIER,
      ME,
      'Cursos de capacitación',
      '2025-03-04T10:00:00',
    );
  });

  it('an RFC fragment matches from the start of the RFC, never from inside it (case aside)', async () => {
    expect(await found('FEHE85')).toEqual([ids.ferre]);
    expect(await found('fehe850312ab1')).toEqual([ids.ferre]);
    expect(await found('CSÑ9001')).toEqual([ids.sureste]);
    expect(await found('csn9001')).toEqual([ids.sureste]); // Ñ typed as N
    expect(await found('HE850312')).toEqual([]);
    expect(await found('850312AB1')).toEqual([]);
    expect(await found('SÑ900101')).toEqual([]);
  });

  it("a UUID fragment matches from the start of the UUID or of its last block, not a middle block's", async () => {
    expect(await found(FERRE_UUID)).toEqual([ids.ferre]);
    expect(await found('5E1F0A2B')).toEqual([ids.ferre]);
    expect(await found('5e1f0a2b-7c3d')).toEqual([ids.ferre]);
    expect(await found('1C2D3E')).toEqual([ids.ferre]); // the last block, as a printed CFDI shows it
    expect(await found('1c2d3e4f5a6b')).toEqual([ids.ferre]);
    expect(await found('7C3D')).toEqual([]); // second block
    expect(await found('4E5F-8A9B')).toEqual([]); // third and fourth
    expect(await found('3E4F5A')).toEqual([]); // inside the last block
  });

  it('a word matches a whole word or its start, in any order, never from its middle', async () => {
    expect(await found('ferre')).toEqual([ids.ferre]);
    expect(await found('tornill')).toEqual([ids.ferre]);
    expect(await found('ramirez reyes')).toEqual([ids.reyes]);
    expect(await found('juan rey')).toEqual([ids.reyes]);
    expect(await found('50')).toEqual([ids.sureste]); // a number is a word of the concept
    expect(await found('gris cemento')).toEqual([ids.sureste]);
    // Short words once dropped as Spanish stopwords are prefixes like any other.
    expect(await found('con')).toEqual([ids.sureste, ids.reyes].sort());
    expect(await found('rreteria')).toEqual([]);
    expect(await found('emento')).toEqual([]);
    expect(await found('ferre cemento')).toEqual([]); // every word, in the same CFDI
  });

  it('folds case and accents both ways, and a plural finds its singular', async () => {
    expect(await found('FERRETERIA')).toEqual([ids.ferre]);
    expect(await found('hernández')).toEqual([ids.ferre]);
    expect(await found('Consultoria')).toEqual([ids.reyes]);
    expect(await found('ferreterías')).toEqual([ids.ferre]);
    expect(await found('servicio')).toEqual([ids.reyes]);
    expect(await found('tornillerias herraje')).toEqual([ids.ferre]);
  });

  it('punctuation separates words and is never a wildcard', async () => {
    expect(await found('Reyes, Juan')).toEqual([ids.reyes]);
    expect(await found('100%_')).toEqual([]);
    expect(await found('%')).toEqual([]);
    expect(await found("'\\:*&")).toEqual([]);
  });

  it('the expense listing follows the same rules', async () => {
    expect(await found('EKU9003', 'expenses')).toEqual([ids.expense]);
    expect(await found('U9003173', 'expenses')).toEqual([]);
    expect(await found('kemper', 'expenses')).toEqual([ids.expense]);
    expect(await found('emper', 'expenses')).toEqual([]);
    expect(await found('C0FFEE', 'expenses')).toEqual([ids.expense]);
    expect(await found('CDEF01', 'expenses')).toEqual([ids.expense]);
    expect(await found('4567', 'expenses')).toEqual([]);
  });
});

describe("a search's total", () => {
  let u: TestUser;
  let first: string;

  beforeAll(async () => {
    const me = await profileOfMe(t);
    u = me.u;
    first = await imported(
      t,
      u,
      me.p.id,
      invoiceXml({
        uuid: 'AAAA0000-0000-4000-8000-000000000001',
        emisor: ME,
        receptor: FERRE,
        fecha: '2025-05-01T10:00:00',
        conceptos: [{ descripcion: 'Material eléctrico', importe: 100 }],
      }),
    );
    await copyCfdi(t.handle.db, first, 999);
  });

  it('is exact up to 1,000 matches (totalExact true)', async () => {
    const page = await listed(u, 'invoices', { search: 'electrico' });
    expect(page.data).toHaveLength(50);
    // 1 imported + 999 copies = 1,000 matches, 50 a page: 1,000 / 50 = 20 pages.
    expect(page.pagination).toEqual({ total: 1000, page: 1, limit: 50, totalPages: 20, totalExact: true });
  });

  it('past 1,000 matches is 1,000, totalExact false, and a page past the 20th is still served', async () => {
    await copyCfdi(t.handle.db, first, 1); // 1,001 matches
    const page = await listed(u, 'invoices', { search: 'electrico' });
    expect(page.pagination).toEqual({ total: 1000, page: 1, limit: 50, totalPages: 20, totalExact: false });
    // Page 21 at 50 a page holds match 1,001 (rows 1,001-1,050): one row.
    const past = await listed(u, 'invoices', { search: 'electrico', page: 21 });
    expect(past.data).toHaveLength(1);
    expect(past.pagination).toEqual({ total: 1000, page: 21, limit: 50, totalPages: 20, totalExact: false });
    // A page past every match still says the total is a lower bound.
    const beyond = await listed(u, 'invoices', { search: 'electrico', page: 30 });
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination).toMatchObject({ total: 1000, totalExact: false });
  });

  it('without a search stays exact past 1,000', async () => {
    const res = await request(t, 'GET', '/api/invoices', { headers: bearer(u.token) });
    expect((await res.json()).pagination).toEqual({
      total: 1001,
      page: 1,
      limit: 50,
      totalPages: Math.ceil(1001 / 50),
      totalExact: true,
    });
  });

  it('of the expense listing is capped alike', async () => {
    const me = await profileOfMe(t);
    const expense = await imported(
      t,
      me.u,
      me.p.id,
      invoiceXml({
        uuid: 'BBBB0000-0000-4000-8000-000000000001',
        emisor: SUPPLIER,
        receptor: ME,
        fecha: '2025-05-01T10:00:00',
        conceptos: [{ descripcion: 'Material eléctrico', importe: 100 }],
      }),
    );
    await copyCfdi(t.handle.db, expense, 1000); // 1,001 matches
    const page = await listed(me.u, 'expenses', { search: 'kemper electrico' });
    // 20 a page (the expense listing's default): 1,000 / 20 = 50 pages.
    expect(page.pagination).toEqual({ total: 1000, page: 1, limit: 20, totalPages: 50, totalExact: false });
    expect((await listed(me.u, 'expenses', { search: 'kemper', page: 51 })).data).toHaveLength(1);
  });
});
