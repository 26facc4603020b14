import { manualExpenses } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, signUp, startTestApi, type TestApi, type TestUser } from './harness';

// Manual expenses paid or not, and by whom (docs/cfdi.md#taxes-by-rate), through the tRPC caller;
// the HTTP shape is in apps/api/test/expenses.test.ts.

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

async function setup() {
  const u = await signUp(t);
  const { data: p } = await caller(t, u.token).profiles.create({
    nombre: 'Ana Gómez',
    rfc: 'GOMA800101AB1',
    tipo_persona: 'FISICA',
    regimenes_fiscales: ['612'],
  });
  const { data: period } = await caller(t, u.token).periods.open({ profile_id: p.id, año: 2025, mes: 3 });
  return { u, p, period };
}

type ManualInput = Parameters<ReturnType<typeof caller>['expenses']['createManual']>[0];
const accrue = (u: TestUser, input: ManualInput) => caller(t, u.token).expenses.createManual(input);
const stored = (id: string) => t.handle.db.select().from(manualExpenses).where(eq(manualExpenses.id, id));
const base = (p: { id: string }, period: { id: string }) =>
  ({
    profile_id: p.id,
    period_id: period.id,
    concept: 'Papelería',
    subtotal: 1000,
    iva_amount: 160,
    fecha: '2025-03-10',
    type: 'manual',
  }) as const;

describe('a manual expense’s payment and supplier', () => {
  it('is unpaid by default, without supplier', async () => {
    const { u, p, period } = await setup();
    const { data } = await accrue(u, base(p, period));
    expect(data).toMatchObject({ is_paid: false });
    expect(data).not.toHaveProperty('payment_date');
    expect(data).not.toHaveProperty('rfc_emisor');
    const [row] = await stored(data.id);
    expect(row).toMatchObject({ isPaid: false, paymentDate: null, rfcEmisor: null, nombreEmisor: null });
  });

  it('keeps is_paid, its payment_date (date part) and the supplier, normalised RFC, and lists them', async () => {
    const { u, p, period } = await setup();
    const { data } = await accrue(u, {
      ...base(p, period),
      is_paid: true,
      payment_date: '2025-04-02T09:00:00-06:00',
      rfc_emisor: ' eku9003173c9 ',
      nombre_emisor: 'Escuela Kemper Urgate',
    });
    expect(data).toMatchObject({
      is_paid: true,
      payment_date: '2025-04-02',
      rfc_emisor: 'EKU9003173C9',
      nombre_emisor: 'Escuela Kemper Urgate',
      iva_amount: 160,
      subtotal: 1000,
    });
    const listed = await caller(t, u.token).expenses.list({ profileId: p.id });
    expect(listed.data).toEqual([data]);
  });

  it('accepts the generic RFC of a sale to the public as supplier', async () => {
    const { u, p, period } = await setup();
    const { data } = await accrue(u, { ...base(p, period), rfc_emisor: 'XAXX010101000' });
    expect(data.rfc_emisor).toBe('XAXX010101000');
  });

  it('refuses is_paid without payment_date, payment_date without is_paid and a malformed RFC; stores nothing', async () => {
    const { u, p, period } = await setup();
    const refused = async (input: ManualInput, message: RegExp) =>
      expect(accrue(u, input)).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        message: expect.stringMatching(message),
      });
    await refused({ ...base(p, period), is_paid: true }, /^payment_date: required when is_paid is true/);
    await refused(
      { ...base(p, period), payment_date: '2025-03-11' },
      /^payment_date: only with is_paid true/,
    );
    await refused(
      { ...base(p, period), is_paid: false, payment_date: '2025-03-11' },
      /^payment_date: only with is_paid true/,
    );
    await refused({ ...base(p, period), rfc_emisor: 'NOT-AN-RFC' }, /^rfc_emisor: RFC format/);
    await refused({ ...base(p, period), rfc_emisor: 'EKU900230AB1' }, /^rfc_emisor: RFC date/);
    expect(await t.handle.db.select().from(manualExpenses).where(eq(manualExpenses.userId, u.id))).toEqual(
      [],
    );
  });
});

describe('marking a manual expense paid later', () => {
  it('paid on a date, then unpaid again (the date goes with it)', async () => {
    const { u, p, period } = await setup();
    const { data } = await accrue(u, base(p, period));
    const expenses = caller(t, u.token).expenses;
    const paid = await expenses.updatePayment({ id: data.id, is_paid: true, payment_date: '2025-04-15' });
    expect(paid.data).toMatchObject({ id: data.id, is_paid: true, payment_date: '2025-04-15', total: 1160 });
    expect((await stored(data.id))[0]).toMatchObject({ isPaid: true, paymentDate: '2025-04-15' });
    const unpaid = await expenses.updatePayment({ id: data.id, is_paid: false });
    expect(unpaid.data.is_paid).toBe(false);
    expect(unpaid.data).not.toHaveProperty('payment_date');
    expect((await stored(data.id))[0]).toMatchObject({ isPaid: false, paymentDate: null });
  });

  it('refuses paid without a date and unpaid with one, changing nothing', async () => {
    const { u, p, period } = await setup();
    const { data } = await accrue(u, base(p, period));
    const expenses = caller(t, u.token).expenses;
    await expect(expenses.updatePayment({ id: data.id, is_paid: true })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'payment_date: required when is_paid is true',
    });
    await expect(
      expenses.updatePayment({ id: data.id, is_paid: false, payment_date: '2025-04-15' }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect((await stored(data.id))[0]).toMatchObject({ isPaid: false, paymentDate: null });
  });

  it('an unknown expense, or another user’s, is not found and stays as it was', async () => {
    const { u, p, period } = await setup();
    const { data } = await accrue(u, base(p, period));
    const other = await signUp(t);
    const pay = { is_paid: true, payment_date: '2025-04-15' };
    await expect(
      caller(t, other.token).expenses.updatePayment({ id: data.id, ...pay }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      caller(t, u.token).expenses.updatePayment({ id: '00000000-0000-4000-8000-000000000000', ...pay }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await stored(data.id))[0]).toMatchObject({ isPaid: false, paymentDate: null });
  });
});
