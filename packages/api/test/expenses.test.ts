import { invoiceXml, newUuid, paymentXml } from '@folio/cfdi/testing';
import { manualExpenses } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imported } from './cfdi-setup';
import { caller, setPlan, signUp, startTestApi, type TestApi, type TestUser } from './harness';

// The rules of accounting periods and manual expenses, through the tRPC caller. The routes' HTTP
// shape (201/200, 400s on the body, Idempotency-Key, 429 with Retry-After) is tested in
// apps/api/test/expenses.test.ts.

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

const ME = {
  nombre: 'Ana Gómez',
  rfc: 'GOMA800101AB1',
  tipo_persona: 'FISICA' as const,
  regimenes_fiscales: ['612'],
};
const ME_PARTY = { rfc: ME.rfc, nombre: ME.nombre, regimen: '612' };
const SUPPLIER = { rfc: 'PAPE900101AA1', nombre: 'Papelería Ñandú', regimen: '612' };

async function setup(plan?: 'BASIC' | 'PRO') {
  const u = await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  const { data: p } = await caller(t, u.token).profiles.create(ME);
  return { u, p };
}

const openPeriod = async (u: TestUser, profileId: string, año: number, mes: number) =>
  (await caller(t, u.token).periods.open({ profile_id: profileId, año, mes })).data;
type ManualInput = Parameters<ReturnType<typeof caller>['expenses']['createManual']>[0];
const accrue = (u: TestUser, input: ManualInput) => caller(t, u.token).expenses.createManual(input);
const manualOf = (userId: string) =>
  t.handle.db.select().from(manualExpenses).where(eq(manualExpenses.userId, userId));

describe('accounting periods', () => {
  it('lists, closes and reopens; other users are refused, a missing period is not found', async () => {
    const { u, p } = await setup();
    const other = await signUp(t);
    const period = await openPeriod(u, p.id, 2025, 4);
    const periods = caller(t, u.token).periods;
    expect((await periods.close({ id: period.id })).data.estado).toBe('CERRADO');
    const list = await periods.list({ profileId: p.id });
    expect(list.data.map((x) => x.estado)).toEqual(['CERRADO']);
    expect((await periods.reopen({ id: period.id })).data.estado).toBe('ABIERTO');
    await expect(caller(t, other.token).periods.close({ id: period.id })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(caller(t, other.token).periods.list({ profileId: p.id })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(periods.close({ id: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('manual expenses', () => {
  it('total = subtotal + iva_amount, iva as a percentage, mes/año from fecha', async () => {
    const { u, p } = await setup();
    const period = await openPeriod(u, p.id, 2025, 3);
    const { message, data } = await accrue(u, {
      profile_id: p.id,
      period_id: period.id,
      concept: 'Renta de oficina',
      subtotal: 1000,
      iva_amount: 160,
      fecha: '2025-03-31',
      type: 'manual',
      categoria: 'renta',
    });
    expect(message).toBeTypeOf('string');
    expect(data).toMatchObject({
      profile_id: p.id,
      tipo_origen: 'MANUAL',
      fecha: '2025-03-31',
      mes: 3,
      año: 2025,
      subtotal: 1000,
      iva_amount: 160,
      total: 1160,
      iva: 16,
      concepto: 'Renta de oficina',
      categoria: 'renta',
    });
    expect(data).not.toHaveProperty('uuid');
  });

  it('defaults iva_amount to 0 and accepts the profile RFC for profile_id', async () => {
    const { u, p } = await setup();
    const period = await openPeriod(u, p.id, 2025, 5);
    const { data } = await accrue(u, {
      profile_id: p.rfc.toLowerCase(),
      period_id: period.id,
      concept: 'Caja chica',
      subtotal: 99.5,
      fecha: '2025-05-01T18:30:00-06:00',
      type: 'manual',
    });
    expect(data).toMatchObject({
      total: 99.5,
      iva_amount: 0,
      iva: 0,
      fecha: '2025-05-01',
      mes: 5,
      profile_id: p.id,
    });
  });

  it('refuses a period of another profile (or none), a foreign profile, and a closed period', async () => {
    const { u, p } = await setup('BASIC');
    const { data: p2 } = await caller(t, u.token).profiles.create({
      nombre: 'Otra',
      rfc: 'ABC970701NN3',
      tipo_persona: 'MORAL',
    });
    const mine = await openPeriod(u, p.id, 2025, 6);
    const theirs = await openPeriod(u, p2.id, 2025, 6);
    const input = {
      profile_id: p.id,
      concept: 'x',
      subtotal: 10,
      fecha: '2025-06-10',
      type: 'manual',
    } as const;
    const refused = (code: string) => ({ code });
    await expect(accrue(u, { ...input, period_id: theirs.id })).rejects.toMatchObject(refused('BAD_REQUEST'));
    await expect(accrue(u, { ...input, period_id: 'missing' })).rejects.toMatchObject(refused('BAD_REQUEST'));
    const stranger = await signUp(t);
    await expect(accrue(stranger, { ...input, period_id: mine.id })).rejects.toMatchObject(
      refused('FORBIDDEN'),
    );
    await caller(t, u.token).periods.close({ id: mine.id });
    await expect(accrue(u, { ...input, period_id: mine.id })).rejects.toMatchObject(refused('CONFLICT'));
  });

  it('lets exactly the allowed number through when creates race at the monthly quota (FREE: 50)', async () => {
    const { u, p } = await setup();
    const period = await openPeriod(u, p.id, 2025, 9);
    const input = {
      profile_id: p.id,
      period_id: period.id,
      concept: 'x',
      subtotal: 1,
      fecha: '2025-09-01',
      type: 'manual',
    } as const;
    for (let i = 0; i < 45; i++) await accrue(u, input);
    const racing = await Promise.allSettled(Array.from({ length: 12 }, () => accrue(u, input)));
    expect(racing.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refusals = racing.filter((r) => r.status === 'rejected');
    expect(refusals.map((r) => (r.reason as { code: string }).code)).toEqual(
      Array(7).fill('TOO_MANY_REQUESTS'),
    );
    expect(await manualOf(u.id)).toHaveLength(50);
  });

  it('opens a period and files a manual expense in it with one caller', async () => {
    const { u, p } = await setup();
    const period = await caller(t, u.token).periods.open({ profile_id: p.id, año: 2025, mes: 10 });
    const { data } = await caller(t, u.token).expenses.createManual({
      profile_id: p.id,
      period_id: period.data.id,
      concept: 'Gasolina',
      subtotal: 100,
      iva_amount: 16,
      fecha: '2025-10-02',
      type: 'manual',
    });
    expect(data).toMatchObject({ tipo_origen: 'MANUAL', total: 116 });
  });
});

describe('the expense list puts XML and manual expenses together', () => {
  let u: TestUser;
  let profileId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({
      u,
      p: { id: profileId },
    } = await setup('PRO'));
    const ppdUuid = newUuid();
    ids.xmlPue = await imported(
      t,
      u,
      profileId,
      invoiceXml({
        uuid: newUuid(),
        emisor: SUPPLIER,
        receptor: ME_PARTY,
        fecha: '2025-03-05T10:00:00',
        conceptos: [{ descripcion: 'Hojas y plumas', importe: 200 }],
      }),
    );
    ids.xmlPpd = await imported(
      t,
      u,
      profileId,
      invoiceXml({
        uuid: ppdUuid,
        emisor: SUPPLIER,
        receptor: ME_PARTY,
        fecha: '2025-04-02T09:00:00',
        metodoPago: 'PPD',
        conceptos: [{ descripcion: 'Servicio de cómputo', importe: 1000 }],
      }),
    );
    ids.xmlRep = await imported(
      t,
      u,
      profileId,
      paymentXml({
        uuid: newUuid(),
        emisor: SUPPLIER,
        receptor: ME_PARTY,
        fecha: '2025-04-20T12:00:00',
        pagos: [
          {
            fechaPago: '2025-04-19T12:00:00',
            doctos: [{ uuid: ppdUuid, numParcialidad: 1, impSaldoAnt: 1160, impPagado: 1160 }],
          },
        ],
      }),
    );
    const march = await openPeriod(u, profileId, 2025, 3);
    const april = await openPeriod(u, profileId, 2025, 4);
    const make = async (period: { id: string }, fecha: string, concept: string, categoria: string) =>
      (
        await accrue(u, {
          profile_id: profileId,
          period_id: period.id,
          concept,
          subtotal: 100,
          fecha,
          type: 'manual',
          categoria,
        })
      ).data.id;
    ids.manualMarch = await make(march, '2025-03-20', 'Comida con cliente', 'viaticos');
    ids.manualApril = await make(april, '2025-04-10', 'Papelería de oficina', 'oficina');
  });

  type ListInput = Parameters<ReturnType<typeof caller>['expenses']['list']>[0];
  const list = (input: ListInput = {}, who = u) => caller(t, who.token).expenses.list(input);
  const idsOf = async (input: ListInput) => (await list(input)).data.map((e) => e.id);

  it('puts both origins in one list, newest fecha first, default limit 20', async () => {
    const body = await list();
    expect(body.data.map((e) => e.id)).toEqual([
      ids.xmlRep,
      ids.manualApril,
      ids.xmlPpd,
      ids.manualMarch,
      ids.xmlPue,
    ]);
    expect(body.pagination).toEqual({ total: 5, page: 1, limit: 20, totalPages: 1, totalExact: true });
    expect(body.data.map((e) => e.tipo_origen)).toEqual(['XML', 'MANUAL', 'XML', 'MANUAL', 'XML']);
  });

  it('derives is_paid and payment_date of XML expenses from their payment status', async () => {
    const byId = Object.fromEntries((await list()).data.map((e) => [e.id, e]));
    expect(byId[ids.xmlPue!]).toMatchObject({ is_paid: true, tipo: 'PUE', rfc_emisor: SUPPLIER.rfc });
    expect(byId[ids.xmlPpd!]).toMatchObject({
      is_paid: true,
      payment_date: '2025-04-19T12:00:00',
      tipo: 'PPD',
    });
    // A manual expense is unpaid until said otherwise (packages/api/test/manual-expense-payment.test.ts).
    expect(byId[ids.manualApril!]).toMatchObject({ is_paid: false });
    expect(byId[ids.manualApril!]).not.toHaveProperty('payment_date');
  });

  it('filters by month and year for both origins', async () => {
    expect(await idsOf({ mes: 3, año: 2025 })).toEqual([ids.manualMarch, ids.xmlPue]);
    expect((await idsOf({ mes: 4, año: 2025 })).sort()).toEqual(
      [ids.xmlRep, ids.manualApril, ids.xmlPpd].sort(),
    );
    expect((await list({ año: 2024 })).data).toEqual([]);
  });

  it('filters tipo on XML expenses only, categoria exactly, regimen_fiscal on XML only', async () => {
    expect(await idsOf({ tipo: 'PPD' })).toEqual([ids.xmlPpd]);
    expect(await idsOf({ tipo: 'COMPLEMENTO_PAGO' })).toEqual([ids.xmlRep]);
    expect(await idsOf({ categoria: 'oficina' })).toEqual([ids.manualApril]);
    expect(await idsOf({ categoria: 'ofi' })).toEqual([]);
    expect((await idsOf({ regimen_fiscal: '612' })).sort()).toEqual(
      [ids.xmlRep, ids.xmlPpd, ids.xmlPue].sort(),
    );
  });

  it('searches concept, RFC and name case- and accent-insensitively across origins', async () => {
    expect((await idsOf({ search: 'PAPELERIA' })).sort()).toEqual(
      [ids.manualApril, ids.xmlRep, ids.xmlPpd, ids.xmlPue].sort(),
    );
    expect(await idsOf({ search: 'computo' })).toEqual([ids.xmlPpd]);
    expect(await idsOf({ search: 'comida' })).toEqual([ids.manualMarch]);
    expect(await idsOf({ search: SUPPLIER.rfc.toLowerCase() })).toHaveLength(3);
  });

  it('filters by profile id or RFC, pages with a total over the filtered set', async () => {
    expect(await idsOf({ profileId: ME.rfc })).toHaveLength(5);
    const page2 = await list({ profileId, limit: 2, page: 2 });
    expect(page2.data.map((e) => e.id)).toEqual([ids.xmlPpd, ids.manualMarch]);
    expect(page2.pagination).toEqual({ total: 5, page: 2, limit: 2, totalPages: 3, totalExact: true });
    const past = await list({ profileId, limit: 2, page: 7 });
    expect(past.data).toEqual([]);
    expect(past.pagination).toEqual({ total: 5, page: 7, limit: 2, totalPages: 3, totalExact: true });
  });

  it('refuses another user’s profile and shows another user nothing', async () => {
    const stranger = await signUp(t);
    await expect(list({ profileId }, stranger)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await list({}, stranger)).data).toEqual([]);
  });
});
