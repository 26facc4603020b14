import { satProducts, usageCounters } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, setPlan, signUp, startTestApi, type TestApi, type TestUser } from './harness';

// The SAT search's matching, paging and plan quota, through the tRPC caller. The routes' HTTP shape
// (fields, 400s on the query string, 429 with Retry-After) is tested in apps/api/test/sat.test.ts.

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

type SearchInput = Parameters<ReturnType<typeof caller>['sat']['search']>[0];
const search = (u: TestUser, input: SearchInput = {}, resHeaders = new Headers()) =>
  caller(t, u.token, 'bearer', { resHeaders }).sat.search(input);
const ids = async (u: TestUser, input: SearchInput) => (await search(u, input)).items.map((i) => i.id);

describe('what the SAT search finds', () => {
  it('matches accents and case either way, and similar words', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    expect(await ids(u, { query: 'COMPUTADORA' })).toContain('43211500');
    expect(await ids(u, { query: 'servicios electricos' })).toContain('83101800');
    expect((await ids(u, { query: 'laptop' }))[0]).toBe('43211508');
  });

  it('still finds a misspelt word by trigram similarity when full text finds nothing', async () => {
    const u = await signUp(t);
    const body = await search(u, { query: 'computadorass' });
    expect(body.items.map((i) => i.id)).toContain('43211500');
    expect(body.total).toBe(body.items.length);
  });

  it('answers a sentence no description holds whole with the products matching most of its words', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    const body = await search(u, { query: 'pagué la gasolina premium de la camioneta' });
    expect(body.items.map((i) => i.id)).toEqual(['15101515', '15101514']);
    expect(body.total).toBe(2);
  });

  it('corrects a misspelt word of a sentence to the nearest catalog word', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    expect((await ids(u, { query: 'compré unas computadorass personales' }))[0]).toBe('43211508');
  });

  it('answers empty for stopwords alone and for words nothing in the catalog resembles', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    expect(await search(u, { query: 'de la que y' })).toMatchObject({ items: [], total: 0 });
    expect(await search(u, { query: 'xyzzy qwrtp' })).toMatchObject({ items: [], total: 0 });
  });

  it('corrects misspellings against the catalog as loaded now, products added later included', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    await t.handle.db.insert(satProducts).values({
      id: '50181909',
      descripcion: 'Pasteles de chocolate',
      incluirIvaTrasladado: 'Sí',
      incluirIepsTrasladado: 'Opcional',
      fechaInicioVigencia: '2022-01-01',
      estimuloFranjaFronteriza: '0',
    });
    expect((await ids(u, { query: 'vendo pastelez de chocolatte' }))[0]).toBe('50181909');
  });

  it('matches code prefixes for a digits-only query, ordered by code', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    expect(await ids(u, { query: '432115' })).toEqual(['43211500', '43211503', '43211507', '43211508']);
  });

  it('counts total over every match while paging with limit and offset', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    const all = await search(u, { limit: 100 });
    const page = await search(u, { limit: 5, offset: 5 });
    expect(page.total).toBe(all.total);
    expect(page.items.map((i) => i.id)).toEqual(all.items.slice(5, 10).map((i) => i.id));
    expect(page.offset).toBe(5);
  });

  it('still counts the total of a page past the last match, which has no row to carry it', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    const all = await search(u, { query: 'computadora', limit: 100 });
    const past = await search(u, { query: 'computadora', limit: 5, offset: all.total + 5 });
    expect(past.items).toEqual([]);
    expect(past.total).toBe(all.total);
    expect(all.total).toBeGreaterThan(0);
  });
});

describe('the plan limits of the SAT search', () => {
  it('caps results at the plan satMaxResults (FREE: 10)', async () => {
    const u = await signUp(t);
    const body = await search(u, { limit: 50 });
    expect(body.items).toHaveLength(10);
    expect(body.limit).toBe(10);
    expect(body.total).toBeGreaterThan(10);
    expect((await search(u, { limit: 5, offset: 10 })).items).toEqual([]);
  });

  it('does not count reading one product as a search', async () => {
    const u = await signUp(t);
    await caller(t, u.token).sat.byId({ id: '43211508' });
    expect(await t.handle.db.select().from(usageCounters).where(eq(usageCounters.userId, u.id))).toEqual([]);
  });

  it('gives an upgraded user the new quota at once (BASIC: 100 searches)', async () => {
    const u = await signUp(t);
    for (let i = 0; i < 10; i++) await search(u);
    await expect(search(u)).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    await setPlan(t, u.id, 'BASIC');
    const headers = new Headers();
    await search(u, {}, headers);
    expect(headers.get('x-quota-remaining')).toBe('89');
  });

  it('applies the limits of the subscription state the quota statement reads: a PAST_DUE PRO searches unlimited, a CANCELLED PRO as FREE', async () => {
    const due = await signUp(t);
    await setPlan(t, due.id, 'PRO', 'PAST_DUE');
    const dueHeaders = new Headers();
    // PRO: satMaxResults null, satBasicSearchesPerMonth null; PAST_DUE is the paid grace period.
    expect((await search(due, { limit: 20 }, dueHeaders)).items).toHaveLength(20);
    expect(dueHeaders.get('x-quota-limit')).toBe('unlimited');
    const cancelled = await signUp(t);
    await setPlan(t, cancelled.id, 'PRO', 'CANCELLED');
    const headers = new Headers();
    // FREE: 10 results deep and 10 searches a month, so 10 - 1 left after this one.
    expect((await search(cancelled, { limit: 50 }, headers)).items).toHaveLength(10);
    expect(headers.get('x-quota-limit')).toBe('10');
    expect(headers.get('x-quota-remaining')).toBe('9');
  });

  it('cuts a page that starts inside the plan depth at it (FREE: offset 6, limit 10 gives rows 7-10)', async () => {
    const u = await signUp(t);
    const first = await search(u, { limit: 10 });
    const deeper = await search(u, { limit: 10, offset: 6 });
    // satMaxResults 10 - offset 6 = 4 rows, the same as the first page's last four.
    expect(deeper.items.map((i) => i.id)).toEqual(first.items.slice(6).map((i) => i.id));
    expect(deeper.limit).toBe(4);
    expect(deeper.total).toBe(first.total);
  });

  it('never lets concurrent searches overshoot the quota', async () => {
    const u = await signUp(t);
    const results = await Promise.allSettled(Array.from({ length: 16 }, () => search(u, { query: 'agua' })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    const refusals = results.filter((r) => r.status === 'rejected');
    expect(refusals.map((r) => (r.reason as { code: string }).code)).toEqual(
      Array(6).fill('TOO_MANY_REQUESTS'),
    );
  });
});
