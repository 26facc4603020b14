import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, imported, ME, profileOfMe, sale } from './cfdi-setup';
import { caller, signUp, startTestApi, type TestApi } from './harness';

// The listings skip the profile's own read once this process has seen the caller own it
// (services/profiles/listing-access.ts); these hold that the answers stay authorizeProfile's, and that
// the expense listing's total, read with its page in one statement, is the one the two counts gave.

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

const month = { mes: 3, año: 2025 };

describe('a listing names its profile by id', () => {
  it("answers the owner's rows every time, 403 to another user after the owner listed it, 404 for a missing id", async () => {
    const { u, p } = await profileOfMe(t);
    const id = await imported(t, u, p.id, sale(newUuid()));
    const other = await signUp(t);
    for (let i = 0; i < 2; i++) {
      const invoices = await caller(t, u.token).invoices.list({ profileId: p.id, ...month });
      expect(invoices.data.map((r) => r.id)).toEqual([id]);
      const expenses = await caller(t, u.token).expenses.list({ profileId: p.id, ...month });
      expect(expenses.data).toEqual([]);
      await expect(caller(t, other.token).invoices.list({ profileId: p.id })).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
      await expect(caller(t, other.token).expenses.list({ profileId: p.id })).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
    }
    await expect(caller(t, u.token).invoices.list({ profileId: newUuid() })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('answers 404 for a profile deleted after its owner listed it', async () => {
    const { u, p } = await profileOfMe(t);
    expect((await caller(t, u.token).invoices.list({ profileId: p.id })).data).toEqual([]);
    expect((await caller(t, u.token).expenses.list({ profileId: p.id })).data).toEqual([]);
    await caller(t, u.token).profiles.delete({ profileId: p.id });
    await expect(caller(t, u.token).invoices.list({ profileId: p.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(caller(t, u.token).expenses.list({ profileId: p.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('answers by RFC as by id', async () => {
    const { u, p } = await profileOfMe(t);
    const id = await imported(t, u, p.id, sale(newUuid()));
    for (let i = 0; i < 2; i++) {
      const listed = await caller(t, u.token).invoices.list({ profileId: ME.rfc, ...month });
      expect(listed.data.map((r) => r.id)).toEqual([id]);
    }
  });
});

describe("the expense listing's total rides on its page", () => {
  it('counts XML and manual expenses on every page, and past the last page', async () => {
    const { u, p } = await profileOfMe(t);
    // Two XML expenses (ME receives) and one manual one, all in March 2025: a total of 3.
    for (const day of ['05', '06'])
      await imported(
        t,
        u,
        p.id,
        invoiceXml({ uuid: newUuid(), emisor: CLIENT, receptor: ME, fecha: `2025-03-${day}T10:00:00` }),
      );
    const period = await caller(t, u.token).periods.open({ profile_id: p.id, ...month });
    await caller(t, u.token).expenses.createManual({
      profile_id: p.id,
      period_id: period.data.id,
      concept: 'Gasolina',
      subtotal: 100,
      iva_amount: 16,
      fecha: '2025-03-07',
      type: 'manual',
    });
    const page = (n: number) =>
      caller(t, u.token).expenses.list({ profileId: p.id, ...month, limit: 2, page: n });
    const [first, second, past] = [await page(1), await page(2), await page(3)];
    expect(first.data.map((e) => e.tipo_origen)).toEqual(['MANUAL', 'XML']);
    expect(second.data.map((e) => e.tipo_origen)).toEqual(['XML']);
    expect(past.data).toEqual([]);
    for (const { pagination } of [first, second, past])
      expect(pagination).toMatchObject({ total: 3, totalPages: 2, totalExact: true });
    // Another month of the same profile: nothing, and a total of 0.
    const empty = await caller(t, u.token).expenses.list({ profileId: p.id, mes: 4, año: 2025 });
    expect(empty.pagination).toMatchObject({ total: 0, totalPages: 0 });
  });
});
