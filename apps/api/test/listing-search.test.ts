import { backfillSearchDictionary } from '@folio/api';
import type { Party } from '@folio/cfdi/testing';
import { invoiceXml } from '@folio/cfdi/testing';
import { cfdis, searchOtherWords } from '@folio/db/schema';
import { copyCfdi } from '@folio/db/testing';
import { and, eq, sql } from 'drizzle-orm';
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
type Query = { search?: string; page?: number; limit?: number };

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

// Word searches whose words are all in counterparties are answered by the counterparty dictionary
// (docs/design.md#search); any other by the search index. Each case below holds the contract rules
// across that split: the answers must be those of the rules, whichever way they were found.
describe('a search the counterparty dictionary answers', () => {
  let u: TestUser;
  let profileId: string;
  const ids: Record<string, string> = {};
  const found = async (search: string) =>
    (await listed(u, 'invoices', { search })).data.map((r) => r.id).sort();
  const put = (uuid: string, receptor: Party, descripcion: string, fecha: string) =>
    imported(
      t,
      u,
      profileId,
      invoiceXml({ uuid, emisor: ME, receptor, fecha, conceptos: [{ descripcion, importe: 100 }] }),
    );
  /** Whether some word of the account outside its counterparties starts with `prefix` (the dictionary then stands aside). */
  const elsewhere = async (prefix: string) =>
    (
      await t.handle.db
        .select()
        .from(searchOtherWords)
        .where(
          and(eq(searchOtherWords.userId, u.id), sql`starts_with(${searchOtherWords.lexeme}, ${prefix})`),
        )
    ).length > 0;

  beforeAll(async () => {
    const me = await profileOfMe(t);
    u = me.u;
    profileId = me.p.id;
    ids.ferre = await put(
      'A1000000-0000-4000-8000-000000000001',
      FERRE,
      'Tornillería y herrajes',
      '2025-04-01T10:00:00',
    );
    // The counterparty's word 'hernández' also in another CFDI's concept.
    ids.flete = await put(
      'A1000000-0000-4000-8000-000000000002',
      { rfc: 'TRU900101AB1', nombre: 'Transportes Ruiz', regimen: '601' },
      'Flete a Hernández',
      '2025-04-02T10:00:00',
    );
    // One RFC, its name changed between two CFDI.
    const lupita: Party = { rfc: 'AALU800101AB1', nombre: 'Abarrotes Lupita', regimen: '612' };
    ids.lupita = await put('A1000000-0000-4000-8000-000000000003', lupita, 'Despensa', '2025-04-03T10:00:00');
    ids.chela = await put(
      'A1000000-0000-4000-8000-000000000004',
      { ...lupita, nombre: 'Abarrotes Chela' },
      'Despensa',
      '2025-04-04T10:00:00',
    );
  });

  it('a word that is also in a concept finds the counterparty and the concept alike', async () => {
    expect(await elsewhere('hernandez')).toBe(true);
    expect(await found('hernandez')).toEqual([ids.ferre, ids.flete].sort());
    expect(await found('hernandez ferre')).toEqual([ids.ferre]);
  });

  it("a word of the own profile's name finds every CFDI it is in", async () => {
    expect(await elsewhere('comercial')).toBe(true);
    expect(await found('comercial')).toEqual(Object.values(ids).sort());
    expect(await found('comercial lupita')).toEqual([ids.lupita]);
  });

  it('words split between the counterparty and the concept find the CFDI holding both', async () => {
    expect(await found('ferre tornill')).toEqual([ids.ferre]);
    expect(await found('ruiz flete')).toEqual([ids.flete]);
    expect(await found('lupita tornill')).toEqual([]);
  });

  it('a counterparty whose name changed: each name finds its own CFDI, the common word both', async () => {
    expect(await elsewhere('lupita')).toBe(false);
    expect(await elsewhere('chela')).toBe(false);
    expect(await found('lupita')).toEqual([ids.lupita]);
    expect(await found('chela')).toEqual([ids.chela]);
    expect(await found('abarrotes')).toEqual([ids.lupita, ids.chela].sort());
    expect(await found('AALU8001 chela')).toEqual([ids.chela]);
    expect(await found('lupita chela')).toEqual([]);
  });

  it("a CFDI's name changed by an update is found by its new words and no longer by its old", async () => {
    // Whatever path changes a searched text, the dictionary learns it (migration 0033's update trigger).
    await t.handle.db
      .update(cfdis)
      .set({ nombreReceptor: 'Transportes Zacatecas' })
      .where(eq(cfdis.id, ids.flete!));
    expect(await elsewhere('zacatecas')).toBe(false);
    expect(await found('zacatecas')).toEqual([ids.flete]);
    expect(await found('transportes zacatecas')).toEqual([ids.flete]);
    expect(await found('ruiz')).toEqual([]);
    // Still in the concept: the search index's way.
    expect(await found('hernandez')).toEqual([ids.ferre, ids.flete].sort());
  });

  it('an account with CFDI from before the dictionary searches alike before and after its back-fill', async () => {
    // As migration 0033 leaves an account that had CFDI: marked pending, nothing of it in the dictionary.
    await t.handle.db.execute(sql`delete from search_counterparties where user_id = ${u.id}`);
    await t.handle.db.execute(sql`delete from search_other_words where user_id = ${u.id}`);
    await t.handle.db.execute(sql`insert into search_dictionary_pending (user_id) values (${u.id})`);
    expect(await found('lupita')).toEqual([ids.lupita]);
    expect(await found('abarrotes')).toEqual([ids.lupita, ids.chela].sort());
    expect(await backfillSearchDictionary(t.handle.db, { batch: 2 })).toBeGreaterThanOrEqual(1);
    expect(await elsewhere('hernandez')).toBe(true);
    expect(await found('lupita')).toEqual([ids.lupita]);
    expect(await found('chela')).toEqual([ids.chela]);
    expect(await found('hernandez')).toEqual([ids.ferre, ids.flete].sort());
  });
});

describe("the dictionary's pages and total", () => {
  let u: TestUser;
  let profileId: string;
  let first: string;
  const rivera = (rfc: string, nombre: string): Party => ({ rfc, nombre, regimen: '601' });
  const put = async (uuid: string, receptor: Party, fecha: string, copies: number) => {
    const id = await imported(
      t,
      u,
      profileId,
      invoiceXml({
        uuid,
        emisor: ME,
        receptor,
        fecha,
        conceptos: [{ descripcion: 'Papel bond', importe: 100 }],
      }),
    );
    await copyCfdi(t.handle.db, id, copies);
    return id;
  };

  beforeAll(async () => {
    const me = await profileOfMe(t);
    u = me.u;
    profileId = me.p.id;
    // Three counterparties named Rivera, their dates interleaved with a fourth's, whose name changed
    // (Dulcería Rivera, then Dulcería Montes: varied, its rows checked one by one).
    first = await put(
      'B1000000-0000-4000-8000-000000000001',
      rivera('PRI900101AB1', 'Papelería Rivera'),
      '2025-01-10T10:00:00',
      40,
    );
    await put(
      'B1000000-0000-4000-8000-000000000002',
      rivera('FRI900101AB2', 'Farmacia Rivera'),
      '2025-01-20T10:00:00',
      40,
    );
    await put(
      'B1000000-0000-4000-8000-000000000003',
      rivera('PAR900101AB3', 'Panadería Rivera'),
      '2025-01-15T10:00:00',
      40,
    );
    await put(
      'B1000000-0000-4000-8000-000000000004',
      rivera('DRI900101AB4', 'Dulcería Rivera'),
      '2025-01-17T10:00:00',
      20,
    );
    await put(
      'B1000000-0000-4000-8000-000000000005',
      rivera('DRI900101AB4', 'Dulcería Montes'),
      '2025-01-18T10:00:00',
      20,
    );
  });

  /** The listing without a search, newest first: every row of this account but Dulcería Montes's 21. */
  const unsearched = async (page: number, limit: number) =>
    (await listed(u, 'invoices', { page, limit })).data.map((r) => r.id);

  it('a page past the first holds the rows the unsearched listing has in those places', async () => {
    // Newest first: Farmacia (01-20) 41, Dulcería Montes (01-18) 21 not matching, Dulcería Rivera
    // (01-17) 21, Panadería (01-15) 41, Papelería (01-10) 41: 41 + 21 + 41 + 41 = 144 matches.
    const montes = (await listed(u, 'invoices', { search: 'montes', limit: 100 })).data.map((r) => r.id);
    expect(montes).toHaveLength(21);
    const all = [...(await unsearched(1, 100)), ...(await unsearched(2, 100))].filter(
      (id) => !montes.includes(id),
    );
    expect(all).toHaveLength(144);
    for (const [page, limit] of [
      [2, 50],
      [3, 50],
      [2, 30],
      [4, 40],
    ] as const) {
      const got = await listed(u, 'invoices', { search: 'rivera', page, limit });
      expect(got.data.map((r) => r.id)).toEqual(all.slice((page - 1) * limit, page * limit));
      expect(got.pagination).toEqual({
        total: 144,
        page,
        limit,
        totalPages: Math.ceil(144 / limit),
        totalExact: true,
      });
    }
    // One counterparty (Farmacia's 41, the newest): its page ends on the very row the bound is.
    for (const page of [1, 2]) {
      const got = await listed(u, 'invoices', { search: 'farmacia', page, limit: 20 });
      expect(got.data.map((r) => r.id)).toEqual(all.slice((page - 1) * 20, page * 20));
    }
  });

  it("the expense listing's pages mix its manual expenses with the dictionary's matches", async () => {
    const expense = async (uuid: string, emisor: Party, fecha: string) => {
      const xml = invoiceXml({
        uuid,
        emisor,
        receptor: ME,
        fecha,
        conceptos: [{ descripcion: 'Papel', importe: 100 }],
      });
      await copyCfdi(t.handle.db, await imported(t, u, profileId, xml), 30);
    };
    await expense(
      'B2000000-0000-4000-8000-000000000001',
      rivera('PRI900101AB1', 'Papelería Rivera'),
      '2025-02-10T10:00:00',
    );
    await expense(
      'B2000000-0000-4000-8000-000000000002',
      rivera('FRI900101AB2', 'Farmacia Rivera'),
      '2025-02-20T10:00:00',
    );
    const period = await request(t, 'POST', '/api/periods', {
      headers: bearer(u.token),
      body: { profile_id: profileId, año: 2025, mes: 2 },
    });
    const manual = await request(t, 'POST', '/api/accrued-expenses', {
      headers: bearer(u.token),
      body: {
        profile_id: profileId,
        period_id: (await period.json()).data.id,
        concept: 'Cuadernos Rivera',
        categoria: 'oficina',
        subtotal: 100,
        fecha: '2025-02-15',
        type: 'manual',
      },
    });
    expect(manual.status).toBe(201);
    // Every expense of the account matches: 31 + 31 XML and the manual one, 63, 20 a page.
    for (const page of [1, 2, 3, 4]) {
      const got = await listed(u, 'expenses', { search: 'rivera', page });
      const plain = await listed(u, 'expenses', { page });
      expect(got.data.map((r) => r.id)).toEqual(plain.data.map((r) => r.id));
      expect(got.pagination).toEqual({ total: 63, page, limit: 20, totalPages: 4, totalExact: true });
    }
  });

  it('past 1,000 matches: 1,000, totalExact false, the pages past the 20th still served', async () => {
    // 144 + 857 copies of Papelería's first = 1,001 matches.
    await copyCfdi(t.handle.db, first, 857);
    const page = await listed(u, 'invoices', { search: 'rivera' });
    expect(page.pagination).toEqual({ total: 1000, page: 1, limit: 50, totalPages: 20, totalExact: false });
    // The oldest (Papelería, 01-10) are last: page 21 at 50 a page holds match 1,001 alone.
    const past = await listed(u, 'invoices', { search: 'rivera', page: 21 });
    expect(past.data).toHaveLength(1);
    expect(past.pagination).toMatchObject({ total: 1000, totalExact: false });
  });
});
