import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, signUp, startTestApi, type TestApi } from './harness';
import { seedInvoices } from './invoice-fixture';

// What the invoice list shows, filters, finds and pages, through the caller. The HTTP shape
// (fields, 400s on the query string, 401/403/404, the XML download) is tested in
// apps/api/test/invoices.test.ts.

let t: TestApi;
let seeded: Awaited<ReturnType<typeof seedInvoices>>;
beforeAll(async () => {
  t = await startTestApi();
  seeded = await seedInvoices(t);
});
afterAll(() => t.close());

type ListInput = Parameters<ReturnType<typeof caller>['invoices']['list']>[0];
const list = (input: ListInput = {}, token = seeded.u.token) => caller(t, token).invoices.list(input);
const idsOf = async (input: ListInput) => (await list(input)).data.map((i) => i.id);

describe('the invoice list', () => {
  it('lists the income CFDI of all your profiles (complements included), newest first, default limit 50', async () => {
    const { ids } = seeded;
    const body = await list();
    expect(body.data.map((i) => i.id)).toEqual([ids.aRep, ids.bFeb, ids.aFeb, ids.aJan]);
    expect(body.pagination).toEqual({ total: 4, page: 1, limit: 50, totalPages: 1, totalExact: true });
  });

  it('takes mes and año from the literal date (no time-zone shift at the month boundary)', async () => {
    const { ids } = seeded;
    expect(await idsOf({ mes: 1, año: 2025 })).toEqual([ids.aJan]);
    expect(await idsOf({ mes: 2, año: 2025 })).toEqual([ids.aRep, ids.bFeb, ids.aFeb]);
  });

  it('filters by profile and by regimen_fiscal on either side', async () => {
    const { ids } = seeded;
    expect(await idsOf({ profileId: seeded.profileB })).toEqual([ids.bFeb]);
    expect((await idsOf({ regimen_fiscal: '626' })).sort()).toEqual([ids.aRep, ids.aFeb].sort());
    expect(await idsOf({ regimen_fiscal: '612' })).toEqual([ids.bFeb]);
  });

  it('searches UUID, RFCs and names, case- and accent-insensitively', async () => {
    const { ids } = seeded;
    expect((await idsOf({ search: 'jose perez' })).sort()).toEqual([ids.aRep, ids.aFeb].sort());
    expect((await idsOf({ search: 'ACME' })).sort()).toEqual([ids.bFeb, ids.aJan].sort());
    expect(await idsOf({ search: ids.ppdUuid.slice(0, 13).toLowerCase() })).toEqual([ids.aFeb]);
    expect(await idsOf({ search: 'goma800101' })).toEqual([ids.bFeb]);
    expect(await idsOf({ search: '100%_' })).toEqual([]);
  });

  // Issue 30 decided it: an RFC fragment matches from the RFC's start, no longer anywhere inside it
  // ('A800101' found GOMA800101AB6 before); docs/contract.md#search.
  it('finds the words of a name in any order, plural or singular, and an RFC from its start only', async () => {
    const { ids } = seeded;
    expect((await idsOf({ search: 'perez jose' })).sort()).toEqual([ids.aRep, ids.aFeb].sort());
    expect((await idsOf({ search: 'Núñez, José' })).sort()).toEqual([ids.aRep, ids.aFeb].sort());
    expect((await idsOf({ search: 'maquinarias acme' })).sort()).toEqual([ids.bFeb, ids.aJan].sort());
    expect(await idsOf({ search: 'maquinaria perez' })).toEqual([]);
    expect(await idsOf({ search: 'GOMA8001' })).toEqual([ids.bFeb]);
    expect(await idsOf({ search: 'A800101' })).toEqual([]);
  });

  it("a word search finds the caller's rows only, across its profiles or in the one named", async () => {
    const { ids } = seeded;
    const other = await seedInvoices(t); // another account with the very same names
    expect((await idsOf({ search: 'maquinarias acme' })).sort()).toEqual([ids.bFeb, ids.aJan].sort());
    expect(await idsOf({ search: 'maquinarias acme', profileId: seeded.profileB })).toEqual([ids.bFeb]);
    const theirs = await list({ search: 'perez jose', profileId: other.profileA }, other.u.token);
    expect(theirs.data.map((i) => i.id).sort()).toEqual([other.ids.aRep, other.ids.aFeb].sort());
    expect(theirs.pagination.total).toBe(2);
  });

  it('counts every match of a search, not only the page (and a page past the end still has it)', async () => {
    const first = await list({ search: 'jose perez', limit: 1 });
    expect(first.data.map((i) => i.id)).toEqual([seeded.ids.aRep]);
    expect(first.pagination).toEqual({ total: 2, page: 1, limit: 1, totalPages: 2, totalExact: true });
    expect((await list({ search: 'jose perez', limit: 1, page: 5 })).pagination).toMatchObject({ total: 2 });
  });

  it('pages with limit and page; total is over the filtered set', async () => {
    const { ids } = seeded;
    const page = await list({ limit: 2, page: 2 });
    expect(page.data.map((i) => i.id)).toEqual([ids.aFeb, ids.aJan]);
    expect(page.pagination).toEqual({ total: 4, page: 2, limit: 2, totalPages: 2, totalExact: true });
    const past = await list({ page: 9 });
    expect(past.data).toEqual([]);
    // A page past the end has no row to carry the total: it is still counted.
    expect(past.pagination).toEqual({ total: 4, page: 9, limit: 50, totalPages: 1, totalExact: true });
    expect((await list({ mes: 3, page: 2 })).pagination).toMatchObject({ total: 0, page: 2 });
  });

  it('refuses an invalid month through the caller as it does over HTTP', async () => {
    await expect(list({ mes: 13 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('shows another user none of your invoices', async () => {
    const stranger = await signUp(t);
    expect((await list({}, stranger.token)).data).toEqual([]);
    await expect(list({ profileId: seeded.profileA }, stranger.token)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });
});
