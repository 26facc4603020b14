import { ivaProporcion5b, manualExpenses, pagosProvisionales, profiles } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  caller,
  createProfile,
  expectError,
  request,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

// The HTTP and tRPC shape of what a profile states for its IVA and RESICO figures (tax-rules.md §4,
// §5): a manual expense's proof, payment form and use; the LIVA 5-B proportion; the RESICO
// provisional payments made. How the reports use them: reports-iva-isr.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function setup() {
  const u = await signUp(t);
  const p = await createProfile(t, u, {
    nombre: 'Ana Gómez',
    rfc: 'GOMA800101AB1',
    tipo_persona: 'FISICA',
    regimenes_fiscales: ['626'],
  });
  const period = await request(t, 'POST', '/api/periods', {
    headers: bearer(u.token),
    body: { profile_id: p.id, año: 2025, mes: 3 },
  });
  return { u, p, periodId: (await period.json()).data.id as string };
}

const put = (u: TestUser, path: string, body: unknown) =>
  request(t, 'PUT', path, { headers: bearer(u.token), body });
const patch = (u: TestUser, id: string, body: unknown) =>
  request(t, 'PATCH', `/api/accrued-expenses/${id}`, { headers: bearer(u.token), body });

const UUID = '6f3a2c1b-9d8e-4f7a-b6c5-d4e3f2a1b0c9';

describe('a manual expense says what supports its IVA credit', () => {
  it('POST stores uuid_cfdi (upper case), forma_pago and uso_iva; PATCH changes and clears them', async () => {
    const { u, p, periodId } = await setup();
    const res = await request(t, 'POST', '/api/accrued-expenses', {
      headers: bearer(u.token),
      body: {
        profile_id: p.id,
        period_id: periodId,
        concepto: 'Papelería',
        subtotal: 1000,
        iva_amount: 160,
        fecha: '2025-03-14',
        type: 'manual',
        uuid_cfdi: UUID,
        forma_pago: '01',
        uso_iva: 'gravado',
      },
    });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toMatchObject({ uuid_cfdi: UUID.toUpperCase(), forma_pago: '01', uso_iva: 'gravado' });
    expect(data.pedimento).toBeUndefined();

    const changed = await patch(u, data.id, {
      uuid_cfdi: null,
      pedimento: '25 47 3082 5001234',
      uso_iva: null,
    });
    expect(changed.status).toBe(200);
    const after = (await changed.json()).data;
    expect(after.uuid_cfdi).toBeUndefined();
    expect(after.uso_iva).toBeUndefined();
    // Anexo 20 writes a pedimento with two spaces between its parts.
    expect(after.pedimento).toBe('25  47  3082  5001234');
    expect(after.is_paid).toBe(false); // a PATCH without is_paid leaves the payment alone

    const viaTrpc = await caller(t, u.token).expenses.updatePayment({
      id: data.id,
      proveedor_extranjero_digital: true,
    });
    expect(viaTrpc.data.proveedor_extranjero_digital).toBe(true);
  });

  it('bad values are a 400 and change nothing', async () => {
    const { u, p, periodId } = await setup();
    const created = await request(t, 'POST', '/api/accrued-expenses', {
      headers: bearer(u.token),
      body: {
        profile_id: p.id,
        period_id: periodId,
        concepto: 'Luz',
        subtotal: 100,
        fecha: '2025-03-02',
        type: 'manual',
      },
    });
    const { id } = (await created.json()).data;
    const [before] = await t.handle.db.select().from(manualExpenses).where(eq(manualExpenses.id, id));
    for (const body of [
      { uuid_cfdi: 'not-a-uuid' },
      { pedimento: '123' },
      { forma_pago: '07' },
      { uso_iva: 'mixto' },
      {},
    ]) {
      await expectError(await patch(u, id, body), 400, 'Bad Request');
    }
    const [row] = await t.handle.db.select().from(manualExpenses).where(eq(manualExpenses.id, id));
    expect(row).toEqual(before);
    await expectError(
      await request(t, 'POST', '/api/accrued-expenses', {
        headers: bearer(u.token),
        body: {
          profile_id: p.id,
          period_id: periodId,
          concepto: 'Luz',
          subtotal: 100,
          fecha: '2025-03-02',
          type: 'manual',
          forma_pago: '00',
        },
      }),
      400,
      'Bad Request',
    );
  });
});

describe('PUT /api/profiles/{id}/iva-proporcion-5b (LIVA 5-B)', () => {
  it('stores the year’s proportion, replaces it on a second PUT; tRPC the same', async () => {
    const { u, p } = await setup();
    const res = await put(u, `/api/profiles/${p.id}/iva-proporcion-5b`, { año: 2025, proporcion: 87.5 });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ profile_id: p.id, año: 2025, proporcion: 87.5 });
    const again = await caller(t, u.token).profiles.setIvaProporcion5b({
      profileId: p.rfc,
      año: 2025,
      proporcion: 90.12,
    });
    expect(again.data.proporcion).toBe(90.12);
    const rows = await t.handle.db.select().from(ivaProporcion5b).where(eq(ivaProporcion5b.profileId, p.id));
    expect(rows.map((r) => [r.anio, r.proporcion])).toEqual([[2025, 90.12]]);
  });

  it('refuses bad input (400), someone else (403), a frozen profile (403)', async () => {
    const { u, p } = await setup();
    const path = `/api/profiles/${p.id}/iva-proporcion-5b`;
    for (const body of [
      { año: 2025, proporcion: 100.01 },
      { año: 2025, proporcion: -1 },
      { año: 2025, proporcion: 50.123 },
      { proporcion: 50 },
    ]) {
      await expectError(await put(u, path, body), 400, 'Bad Request');
    }
    await expectError(await put(await signUp(t), path, { año: 2025, proporcion: 50 }), 403, 'Forbidden');
    await t.handle.db
      .update(profiles)
      .set({ frozen: true, frozenReason: 'PLAN_LIMIT', frozenAt: new Date() })
      .where(eq(profiles.id, p.id));
    await expectError(await put(u, path, { año: 2025, proporcion: 50 }), 403, 'Forbidden');
    expect(
      await t.handle.db.select().from(ivaProporcion5b).where(eq(ivaProporcion5b.profileId, p.id)),
    ).toEqual([]);
  });
});

describe('PUT /api/profiles/{id}/pagos-provisionales/{año}/{mes}', () => {
  it('records the ISR paid for a month; bad month or amount 400; frozen 403', async () => {
    const { u, p } = await setup();
    const res = await put(u, `/api/profiles/${p.id}/pagos-provisionales/2025/3`, { isr_pagado: 1250.5 });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ profile_id: p.id, año: 2025, mes: 3, isr_pagado: 1250.5 });
    const viaTrpc = await caller(t, u.token).profiles.setPagoProvisional({
      profileId: p.id,
      anio: 2025,
      mes: 3,
      isr_pagado: 1300,
    });
    expect(viaTrpc.data.isr_pagado).toBe(1300);
    for (const [path, body] of [
      ['/2025/13', { isr_pagado: 1 }],
      ['/2025/0', { isr_pagado: 1 }],
      ['/1999/3', { isr_pagado: 1 }],
      ['/2025/3', { isr_pagado: -1 }],
      ['/2025/3', { isr_pagado: 1.001 }],
    ] as const) {
      await expectError(
        await put(u, `/api/profiles/${p.id}/pagos-provisionales${path}`, body),
        400,
        'Bad Request',
      );
    }
    await t.handle.db
      .update(profiles)
      .set({ frozen: true, frozenReason: 'PLAN_LIMIT' })
      .where(eq(profiles.id, p.id));
    await expectError(
      await put(u, `/api/profiles/${p.id}/pagos-provisionales/2025/4`, { isr_pagado: 1 }),
      403,
      'Forbidden',
    );
    const rows = await t.handle.db
      .select()
      .from(pagosProvisionales)
      .where(eq(pagosProvisionales.profileId, p.id));
    expect(rows.map((r) => [r.mes, r.isrPagado])).toEqual([[3, 1300]]);
  });
});
