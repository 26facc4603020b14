// tax-rules.md §4 (creditable IVA) and §5 (ISR) through the real import and the report routes, REST
// and tRPC: each profile's month is worked by hand below, with the article it follows.

import { round2 } from '@folio/cfdi';
import { invoiceXml, newUuid, type Party, paymentXml, payrollXml } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imported } from './cfdi-helpers';
import {
  bearer,
  caller,
  createProfile,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';

const ANA: Party = { rfc: 'GOMA800101AB6', nombre: 'Ana Gómez', regimen: '612' };
const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };
const MORAL: Party = { rfc: 'ACM010101AB3', nombre: 'Acmé Maquinaria', regimen: '601' };
const SUPPLIER: Party = { rfc: 'EKU9003173C9', nombre: 'Escuela Kemper Urgate', regimen: '601' };
const GAS: Party = { rfc: 'GAS020202AB1', nombre: 'Gasolinera del Centro', regimen: '601' };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

async function profile(who: Party, tipo: 'FISICA' | 'MORAL', regimenes: string[]) {
  const u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  const p = await createProfile(t, u, {
    nombre: who.nombre,
    rfc: who.rfc,
    tipo_persona: tipo,
    regimenes_fiscales: regimenes,
  });
  const put = (xml: string) => imported(t, u, p.id, xml);
  return { u, id: p.id as string, put };
}

async function monthly(u: TestUser, id: string, mes: number) {
  const res = await request(t, 'GET', `/api/reports/monthly?profileId=${id}&año=2025&mes=${mes}`, {
    headers: bearer(u.token),
  });
  expect(res.status).toBe(200);
  const rest = (await res.json()).data;
  // The tRPC procedure answers the very same report.
  const trpc = (await caller(t, u.token).reports.monthly({ profileId: id, año: 2025, mes })).data;
  expect(trpc).toEqual(rest);
  return rest;
}

async function annual(u: TestUser, id: string) {
  const res = await request(t, 'GET', `/api/reports/annual?profileId=${id}&año=2025`, {
    headers: bearer(u.token),
  });
  expect(res.status).toBe(200);
  const rest = (await res.json()).data;
  expect((await caller(t, u.token).reports.annual({ profileId: id, año: 2025 })).data).toEqual(rest);
  return rest;
}

async function manualExpense(u: TestUser, id: string, fields: Record<string, unknown>) {
  const period = await request(t, 'POST', '/api/periods', {
    headers: bearer(u.token),
    body: { profile_id: id, año: 2025, mes: 3 },
  });
  const res = await request(t, 'POST', '/api/accrued-expenses', {
    headers: bearer(u.token),
    body: {
      profile_id: id,
      period_id: (await period.json()).data.id,
      concepto: 'Gasto',
      fecha: '2025-03-05',
      type: 'manual',
      is_paid: true,
      payment_date: '2025-03-06',
      ...fields,
    },
  });
  expect(res.status).toBe(201);
}

const sale = (
  emisor: Party,
  receptor: Party,
  fecha: string,
  extra: Partial<Parameters<typeof invoiceXml>[0]>,
) => invoiceXml({ uuid: newUuid(), emisor, receptor, fecha, ...extra });

describe('LIVA 5-I and 5-II: cash payments, fuel, manual expenses without their CFDI', () => {
  it('cash over 2,000.00, fuel in cash, a REP paid in cash, a manual expense without uuid_cfdi or in cash: not creditable; the rest is', async () => {
    const { u, id, put } = await profile(ANA, 'FISICA', ['612']);
    await put(
      sale(ANA, CLIENT, '2025-03-02T10:00:00', { conceptos: [{ descripcion: 'Diseño', importe: 20000 }] }),
    );
    // A: cash, 2,000.00 + 320.00 = 2,320.00 > 2,000.00 (LISR 27-III) → 320.00 not creditable.
    await put(
      sale(SUPPLIER, ANA, '2025-03-03T10:00:00', {
        formaPago: '01',
        conceptos: [{ descripcion: 'Silla', importe: 2000 }],
      }),
    );
    // B: cash, 1,500.00 + 240.00 = 1,740.00 ≤ 2,000.00 → creditable.
    await put(
      sale(SUPPLIER, ANA, '2025-03-04T10:00:00', {
        formaPago: '01',
        conceptos: [{ descripcion: 'Mesa', importe: 1500 }],
      }),
    );
    // C: fuel (151015xx) in cash, 500.00 + 80.00: never creditable in cash.
    await put(
      sale(GAS, ANA, '2025-03-05T10:00:00', {
        formaPago: '01',
        conceptos: [{ descripcion: 'Gasolina', importe: 500, claveProdServ: '15101505' }],
      }),
    );
    // D: PPD 3,000.00 + 480.00 = 3,480.00, the supplier's REP says FormaDePagoP 01 for 1,000.00 paid in
    // March: its IVA 480 × 1,000 / 3,480 = 137.931… is not creditable (the operation's total exceeds 2,000.00).
    const d = newUuid();
    await put(
      invoiceXml({
        uuid: d,
        emisor: SUPPLIER,
        receptor: ANA,
        fecha: '2025-03-06T10:00:00',
        metodoPago: 'PPD',
        conceptos: [{ descripcion: 'Equipo', importe: 3000 }],
      }),
    );
    await put(
      paymentXml({
        uuid: newUuid(),
        emisor: SUPPLIER,
        receptor: ANA,
        fecha: '2025-03-20T10:00:00',
        pagos: [
          {
            fechaPago: '2025-03-20T10:00:00',
            formaPago: '01',
            doctos: [{ uuid: d, numParcialidad: 1, impSaldoAnt: 3480, impPagado: 1000 }],
          },
        ],
      }),
    );
    // E: by transfer, 5,000.00 + 800.00 → creditable.
    await put(
      sale(SUPPLIER, ANA, '2025-03-07T10:00:00', { conceptos: [{ descripcion: 'Curso', importe: 5000 }] }),
    );
    // Manual: with its CFDI's UUID 160.00 creditable; without it 80.00 not (LIVA 5-II);
    // with its UUID but paid in cash, 3,000.00 + 480.00 > 2,000.00 → 480.00 not.
    await manualExpense(u, id, { subtotal: 1000, iva_amount: 160, uuid_cfdi: newUuid() });
    await manualExpense(u, id, { subtotal: 500, iva_amount: 80 });
    await manualExpense(u, id, { subtotal: 3000, iva_amount: 480, uuid_cfdi: newUuid(), forma_pago: '01' });

    const march = await monthly(u, id, 3);
    const pagado = 320 + 240 + 80 + (480 * 1000) / 3480 + 800 + 160 + 80 + 480;
    expect(march.flujo.pagado.iva_trasladado).toBe(round2(pagado));
    const noAcreditable = 320 + 80 + (480 * 1000) / 3480 + 80 + 480;
    expect(march.iva).toMatchObject({
      trasladado_cobrado: 3200,
      acreditable_pagado: 240 + 800 + 160,
      no_acreditable: round2(noAcreditable),
      proporcion: 100,
      // saldo = 3,200.00 − 0 − 1,200.00
      saldo: 3200 - 1200,
      a_cargo: 2000,
    });
    const why = march.advertencias.filter((a: string) => a.includes('no acreditable'));
    expect(why).toHaveLength(5);
    expect(
      why.filter((a: string) => a.includes('efectivo en una operación de más de 2,000.00')),
    ).toHaveLength(3);
    expect(why.filter((a: string) => a.includes('combustible'))).toHaveLength(1);
    expect(why.filter((a: string) => a.includes('sin CFDI (LIVA art. 5-II)'))).toHaveLength(1);
  });
});

describe('LIVA 5-I: a manual payment marked cash', () => {
  it('a received PPD invoice paid by hand in cash (formaPago 01): its IVA not creditable when the invoice exceeds 2,000.00', async () => {
    const { u, id, put } = await profile(ANA, 'FISICA', ['612']);
    const big = await put(
      invoiceXml({
        uuid: newUuid(),
        emisor: SUPPLIER,
        receptor: ANA,
        fecha: '2025-03-06T10:00:00',
        metodoPago: 'PPD',
        conceptos: [{ descripcion: 'Equipo', importe: 2500 }],
      }),
    );
    const small = await put(
      invoiceXml({
        uuid: newUuid(),
        emisor: SUPPLIER,
        receptor: ANA,
        fecha: '2025-03-07T10:00:00',
        metodoPago: 'PPD',
        conceptos: [{ descripcion: 'Cable', importe: 1000 }],
      }),
    );
    for (const [invoice, monto] of [
      [big, 1000],
      [small, 1160],
    ] as const) {
      const res = await request(t, 'POST', `/api/invoices/${invoice}/payments`, {
        headers: bearer(u.token),
        body: { fechaPago: '2025-03-20', formaPago: '01', monedaPago: 'MXN', monto },
      });
      expect(res.status).toBe(201);
    }
    const march = await monthly(u, id, 3);
    // 2,900.00 > 2,000.00: 400 × 1,000 / 2,900 = 137.93 not creditable; 1,160.00 ≤ 2,000.00: its 160 is.
    expect(march.iva).toMatchObject({ acreditable_pagado: 160, no_acreditable: round2((400 * 1000) / 2900) });
  });
});

describe('LIVA 5-V, 4-A, 5-C and 5-B: the proportion', () => {
  it('exempt and non-object income prorate the IVA of untagged expenses (interest left out); uso_iva gravado 100 %, exento 0 %; 5-B fixes it for the year', async () => {
    const { u, id, put } = await profile(ANA, 'FISICA', ['612']);
    await put(
      sale(ANA, CLIENT, '2025-03-02T10:00:00', { conceptos: [{ descripcion: 'Venta', importe: 70000 }] }),
    );
    await put(
      sale(ANA, CLIENT, '2025-03-03T10:00:00', {
        conceptos: [{ descripcion: 'Libros', importe: 20000, ivaRate: 'exento' }],
      }),
    );
    await put(
      sale(ANA, CLIENT, '2025-03-04T10:00:00', {
        conceptos: [{ descripcion: 'Donativo', importe: 10000, objetoImp: '01' }],
      }),
    );
    // Interest (ClaveProdServ 841017xx), exempt: LIVA 5-C leaves it out of both sides.
    await put(
      sale(ANA, CLIENT, '2025-03-05T10:00:00', {
        conceptos: [
          {
            descripcion: 'Intereses del préstamo',
            importe: 5000,
            ivaRate: 'exento',
            claveProdServ: '84101700',
          },
        ],
      }),
    );
    await put(
      sale(SUPPLIER, ANA, '2025-03-06T10:00:00', { conceptos: [{ descripcion: 'Renta', importe: 10000 }] }),
    );
    await manualExpense(u, id, { subtotal: 2000, iva_amount: 320, uuid_cfdi: newUuid(), uso_iva: 'gravado' });
    await manualExpense(u, id, { subtotal: 1000, iva_amount: 160, uuid_cfdi: newUuid(), uso_iva: 'exento' });

    const march = await monthly(u, id, 3);
    // 70,000 / (70,000 + 20,000 + 10,000) = 70.00 % (with the interest it would be 70,000 / 105,000 = 66.67 %).
    // Creditable: 1,600 × 70 % + 320 (gravado) + 0 (exento) = 1,440; the rest 480 + 160 = 640.
    expect(march.iva).toMatchObject({
      trasladado_cobrado: 11200,
      proporcion: 70,
      acreditable_pagado: 1600 * 0.7 + 320,
      no_acreditable: 1600 * 0.3 + 160,
      saldo: 11200 - 1440,
    });
    expect(
      march.advertencias.some((a: string) => a.startsWith('proporción de IVA acreditable 70.00 %')),
    ).toBe(true);
    // Totals by rate (the IVA return's): the interest stays in the exempt column.
    expect(march.flujo.cobrado.por_tasa).toEqual({
      tasa_16: { base: 70000, iva: 11200 },
      tasa_8: { base: 0, iva: 0 },
      tasa_0: { base: 0, iva: 0 },
      exento: { base: 20000 + 5000, iva: 0 },
      no_objeto: { base: 10000, iva: 0 },
    });
    expect(march.flujo.pagado.por_tasa.tasa_16).toEqual({ base: 10000 + 2000 + 1000, iva: 1600 + 320 + 160 });

    // LIVA 5-B: the previous year's 80.00 % fixed for 2025 replaces the month's own.
    const fixed = await request(t, 'PUT', `/api/profiles/${id}/iva-proporcion-5b`, {
      headers: bearer(u.token),
      body: { año: 2025, proporcion: 80 },
    });
    expect(fixed.status).toBe(200);
    const again = await monthly(u, id, 3);
    // 1,600 × 80 % + 320 = 1,600; not creditable 1,600 × 20 % + 160 = 480.
    expect(again.iva).toMatchObject({ proporcion: 80, acreditable_pagado: 1600, no_acreditable: 480 });
    expect(again.advertencias).toContain(
      'IVA acreditable con la proporción fija del año, 80.00 % (LIVA art. 5-B)',
    );
  });

  it('a received CFDI tagged uso_iva and an issued one tagged 5-C (PUT /expenses/{id}/uso-iva, /invoices/{id}/acto-5c)', async () => {
    const { u, id, put } = await profile(ANA, 'FISICA', ['612']);
    await put(
      sale(ANA, CLIENT, '2025-03-02T10:00:00', { conceptos: [{ descripcion: 'Venta', importe: 60000 }] }),
    );
    await put(
      sale(ANA, CLIENT, '2025-03-03T10:00:00', {
        conceptos: [{ descripcion: 'Libros', importe: 20000, ivaRate: 'exento' }],
      }),
    );
    // An exempt sale of shares (LIVA 5-C I), which Folio cannot recognise by itself.
    const acciones = await put(
      sale(ANA, CLIENT, '2025-03-04T10:00:00', {
        conceptos: [{ descripcion: 'Acciones', importe: 40000, ivaRate: 'exento' }],
      }),
    );
    const renta = await put(
      sale(SUPPLIER, ANA, '2025-03-06T10:00:00', { conceptos: [{ descripcion: 'Renta', importe: 10000 }] }),
    );
    await put(
      sale(SUPPLIER, ANA, '2025-03-07T10:00:00', { conceptos: [{ descripcion: 'Luz', importe: 5000 }] }),
    );
    // Untagged: 60,000 / (60,000 + 20,000 + 40,000) = 50.00 %: (1,600 + 800) × 50 % = 1,200.
    expect((await monthly(u, id, 3)).iva).toMatchObject({ proporcion: 50, acreditable_pagado: 1200 });

    const tagged = await request(t, 'PUT', `/api/invoices/${acciones}/acto-5c`, {
      headers: bearer(u.token),
      body: { acto_5c: true },
    });
    expect(tagged.status).toBe(200);
    expect((await tagged.json()).data).toEqual({ id: acciones, acto_5c: true });
    const gravado = await caller(t, u.token).expenses.setUsoIva({ id: renta, uso_iva: 'gravado' });
    expect(gravado.data).toEqual({ id: renta, uso_iva: 'gravado' });
    // 60,000 / (60,000 + 20,000) = 75.00 %: the rent's 1,600 in full + the light's 800 × 75 % = 2,200.
    const march = await monthly(u, id, 3);
    expect(march.iva).toMatchObject({
      proporcion: 75,
      acreditable_pagado: 1600 + 800 * 0.75,
      no_acreditable: 200,
    });

    // The tags belong to their side; someone else's CFDI is refused; nothing changes.
    const wrongSide = await request(t, 'PUT', `/api/expenses/${acciones}/uso-iva`, {
      headers: bearer(u.token),
      body: { uso_iva: 'exento' },
    });
    expect(wrongSide.status).toBe(404);
    const other = await signUp(t);
    const theirs = await request(t, 'PUT', `/api/expenses/${renta}/uso-iva`, {
      headers: bearer(other.token),
      body: { uso_iva: null },
    });
    expect(theirs.status).toBe(403);
    const bad = await request(t, 'PUT', `/api/expenses/${renta}/uso-iva`, {
      headers: bearer(u.token),
      body: { uso_iva: 'mixto' },
    });
    expect(bad.status).toBe(400);
    expect((await monthly(u, id, 3)).iva).toEqual(march.iva);
  });

  it('LIVA 6: a month a favor is carried, informatively, until a later a cargo absorbs it', async () => {
    const { u, id, put } = await profile(ANA, 'FISICA', ['612']);
    // January: bought 10,000 + 1,600, sold nothing → a favor 1,600. February: sold 5,000 + 800 → a cargo 800.
    await put(
      sale(SUPPLIER, ANA, '2025-01-10T10:00:00', { conceptos: [{ descripcion: 'Equipo', importe: 10000 }] }),
    );
    await put(
      sale(ANA, CLIENT, '2025-02-10T10:00:00', { conceptos: [{ descripcion: 'Venta', importe: 5000 }] }),
    );
    const feb = await monthly(u, id, 2);
    expect(feb.iva).toMatchObject({ saldo: 800, a_cargo: 800, saldos_a_favor_anteriores: 1600 });
    // March: nothing; 1,600 − 800 absorbed by February = 800 still a favor.
    const mar = await monthly(u, id, 3);
    expect(mar.iva).toMatchObject({ saldo: 0, saldos_a_favor_anteriores: 1600 - 800 });
  });
});

describe('LISR 113-E and 113-F: RESICO', () => {
  it('the monthly bracket on collected income, and the annual single rate less the payments made (one recorded) and the ISR withheld', async () => {
    const { u, id, put } = await profile(ANA, 'FISICA', ['626']);
    // January: 40,000 → 1.10 % (≤ 50,000): 440.00.
    await put(
      sale(ANA, CLIENT, '2025-01-15T10:00:00', {
        ivaRate: 0,
        conceptos: [{ descripcion: 'Servicio', importe: 40000 }],
      }),
    );
    // March: 60,000 to a persona moral that withholds 1.25 % (750.00) → 1.50 % (≤ 83,333.33): 900 − 750 = 150.
    await put(
      sale(ANA, MORAL, '2025-03-15T10:00:00', {
        ivaRate: 0,
        retenciones: { isr: 0.0125 },
        conceptos: [{ descripcion: 'Servicio', importe: 60000 }],
      }),
    );
    const march = await monthly(u, id, 3);
    expect(march.resico).toEqual({
      ingresos_cobrados: 60000,
      tasa: 1.5,
      isr_causado: 900,
      isr_retenido: 750,
      isr_a_pagar: 150,
    });
    // January was paid with 400.00, not the 440.00 computed.
    const paid = await request(t, 'PUT', `/api/profiles/${id}/pagos-provisionales/2025/1`, {
      headers: bearer(u.token),
      body: { isr_pagado: 400 },
    });
    expect(paid.status).toBe(200);
    const year = await annual(u, id);
    // 100,000 → 1.00 % (≤ 300,000): 1,000; − (400 + 150) − 750 = −300 → a favor 300.
    expect(year.resico_anual).toEqual({
      ingresos_cobrados: 100000,
      tasa: 1,
      isr_causado: 1000,
      pagos_provisionales: 400 + 150,
      isr_retenido: 750,
      isr_a_cargo: 0,
      isr_a_favor: 300,
    });
  });

  it('the 3,500,000.00 limit is year to date, salaries included: a warning the month it passes, no RESICO after, none for the year', async () => {
    const { u, id, put } = await profile(ANA, 'FISICA', ['626', '605']);
    await put(
      sale(ANA, CLIENT, '2025-01-15T10:00:00', {
        ivaRate: 0,
        conceptos: [{ descripcion: 'Obra', importe: 2000000 }],
      }),
    );
    await put(
      sale(ANA, CLIENT, '2025-02-15T10:00:00', {
        ivaRate: 0,
        conceptos: [{ descripcion: 'Obra', importe: 1000000 }],
      }),
    );
    // A salary of 100,000 received in February (LISR 113-E counts it toward the limit).
    await put(
      payrollXml({
        uuid: newUuid(),
        emisor: MORAL,
        receptor: { ...ANA, regimen: '605' },
        fecha: '2025-02-27T10:00:00',
        fechaPago: '2025-02-28',
        gravado: 100000,
        isr: 25000,
      }),
    );
    // March: 450,000 → 2,000,000 + 1,000,000 + 450,000 = 3,450,000 of income, 3,550,000 with the salary.
    await put(
      sale(ANA, CLIENT, '2025-03-15T10:00:00', {
        ivaRate: 0,
        conceptos: [{ descripcion: 'Obra', importe: 450000 }],
      }),
    );
    await put(
      sale(ANA, CLIENT, '2025-04-15T10:00:00', {
        ivaRate: 0,
        conceptos: [{ descripcion: 'Obra', importe: 10000 }],
      }),
    );
    const feb = await monthly(u, id, 2);
    expect(feb.resico.ingresos_cobrados).toBe(1000000); // the salary stays out of the base
    expect(feb.advertencias.some((a: string) => a.includes('3,500,000.00'))).toBe(false);
    const march = await monthly(u, id, 3);
    // Still computed in March (its own bracket: 450,000 > 208,333.33 → 2.50 %), with the warning.
    expect(march.resico).toMatchObject({ ingresos_cobrados: 450000, tasa: 2.5, isr_causado: 11250 });
    expect(march.advertencias).toContainEqual(
      expect.stringMatching(/^ingresos del año 3,550,000.00 por encima de 3,500,000.00/),
    );
    const april = await monthly(u, id, 4);
    expect(april.resico).toBeUndefined();
    expect(april.advertencias).toContainEqual(expect.stringMatching(/^el perfil dejó el RESICO en 2025-03/));
    expect((await annual(u, id)).resico_anual).toBeUndefined();
  });
});

describe('Nómina 1.2: the employer’s payroll and the employee’s salary, by FechaPago', () => {
  it('totals of the month’s receipts; a receipt paid in April counts in April; salaries stay out of income and IVA', async () => {
    const employer = await profile(MORAL, 'MORAL', ['601']);
    const EMPLEADA = { ...ANA, regimen: '605' };
    await employer.put(
      payrollXml({
        uuid: newUuid(),
        emisor: MORAL,
        receptor: EMPLEADA,
        fecha: '2025-03-14T10:00:00',
        fechaPago: '2025-03-15',
        gravado: 10000,
        exento: 500,
        isr: 1200,
        otras: 300,
      }),
    );
    const second = { rfc: 'PEJJ800101AA2', nombre: 'José Pérez Núñez', regimen: '605' };
    await employer.put(
      payrollXml({
        uuid: newUuid(),
        emisor: MORAL,
        receptor: second,
        fecha: '2025-03-14T10:00:00',
        fechaPago: '2025-03-15',
        gravado: 5000,
        isr: 400,
        subsidio: { pagado: 0, causado: 200 },
      }),
    );
    // Issued March 31, paid April 1: April's.
    await employer.put(
      payrollXml({
        uuid: newUuid(),
        emisor: MORAL,
        receptor: second,
        fecha: '2025-03-31T10:00:00',
        fechaPago: '2025-04-01',
        gravado: 7000,
      }),
    );
    const march = await monthly(employer.u, employer.id, 3);
    expect(march.nomina).toEqual({
      documentos: 2,
      percepciones_gravadas: 10000 + 5000,
      percepciones_exentas: 500,
      deducciones: 1200 + 300 + 400,
      otros_pagos: 0,
      subsidio_causado: 200,
      isr_retenido: 1200 + 400,
    });
    expect(march.nomina_recibida).toBeUndefined();
    expect((await monthly(employer.u, employer.id, 4)).nomina).toMatchObject({
      documentos: 1,
      percepciones_gravadas: 7000,
    });

    // The employee's own profile: her salary and the ISR withheld; not income, not IVA.
    const employee = await profile(EMPLEADA, 'FISICA', ['605']);
    await employee.put(
      payrollXml({
        uuid: newUuid(),
        emisor: MORAL,
        receptor: EMPLEADA,
        fecha: '2025-03-14T10:00:00',
        fechaPago: '2025-03-15',
        gravado: 10000,
        exento: 500,
        isr: 1200,
        otras: 300,
      }),
    );
    const hers = await monthly(employee.u, employee.id, 3);
    expect(hers.nomina_recibida).toMatchObject({
      documentos: 1,
      percepciones_gravadas: 10000,
      percepciones_exentas: 500,
      isr_retenido: 1200,
    });
    expect(hers.ingresos.documentos).toBe(0);
    expect(hers.flujo.cobrado.total).toBe(0);
    expect(hers.iva.trasladado_cobrado).toBe(0);
  });
});
