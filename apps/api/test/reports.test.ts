// The tax reports (plan-features §3) over a realistic March 2025 of a RESICO freelancer, imported
// through the real import: every figure is worked out by hand below, from the documents' amounts.

import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { backfillTaxDetail } from '@folio/api';
import { round2 } from '@folio/cfdi';
import { invoiceXml, newUuid, type Party, paymentXml } from '@folio/cfdi/testing';
import { cfdis } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ME as COMPANY, imported, profileOfMe } from './cfdi-helpers';
import {
  bearer,
  createProfile,
  expectError,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
  trpcClient,
} from './harness';
import { forgetTaxDetail } from './support/forget-tax-detail';
import { hasPoppler, pageImage, pdfPages, pdfText } from './support/poppler';

const ME: Party = { rfc: 'GOMA800101AB6', nombre: 'Ana Gómez', regimen: '626' };
const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };
/** A persona moral that withholds 1.25 % ISR and two thirds of the IVA from a RESICO freelancer. */
const ACME: Party = { rfc: 'ACM010101AB3', nombre: 'Acmé Maquinaria', regimen: '601' };
const FOREIGN: Party = { rfc: 'XEXX010101000', nombre: 'Globex Inc', regimen: '616' };
const SUPPLIER: Party = { rfc: 'EKU9003173C9', nombre: 'Escuela Kemper Urgate', regimen: '601' };
const JOSE: Party = { rfc: 'PEJJ800101AA2', nombre: 'José Pérez Núñez', regimen: '626' };

let t: TestApp;
let u: TestUser;
let profileId: string;

// ACME's PPD invoice of 20,000.00 + IVA 3,200.00 − ISR 1.25 % (250.00) − IVA 2/3 (0.106667 × 20,000
// = 2,133.34) = 20,816.66, paid 10,000.00 on March 15 and the rest on April 10.
const ACME_TOTAL = 20000 + 3200 - 250 - 2133.34;
const ACME_FIRST = 10000;
/** The share of ACME's invoice paid in March. */
const p = ACME_FIRST / ACME_TOTAL;

async function get(path: string) {
  const res = await request(t, 'GET', path, { headers: bearer(u.token) });
  return { status: res.status, body: await res.json() };
}

const monthly = async (mes = 3) =>
  (await get(`/api/reports/monthly?profileId=${ME.rfc}&año=2025&mes=${mes}`)).body;

beforeAll(async () => {
  t = await startTestApp();
  u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  profileId = (
    await createProfile(t, u, {
      nombre: ME.nombre,
      rfc: ME.rfc,
      tipo_persona: 'FISICA',
      regimenes_fiscales: ['626'],
    })
  ).id;
  const put = (xml: string) => imported(t, u, profileId, xml);
  const sale = (
    uuid: string,
    receptor: Party,
    fecha: string,
    extra: Partial<Parameters<typeof invoiceXml>[0]> = {},
  ) => invoiceXml({ uuid, emisor: ME, receptor, fecha, ...extra });
  const purchase = (emisor: Party, fecha: string, extra: Partial<Parameters<typeof invoiceXml>[0]> = {}) =>
    invoiceXml({ uuid: newUuid(), emisor, receptor: ME, fecha, ...extra });
  const rep = (
    emisor: Party,
    receptor: Party,
    fecha: string,
    fechaPago: string,
    uuid: string,
    paid: number,
    before: number,
    n = 1,
  ) =>
    paymentXml({
      uuid: newUuid(),
      emisor,
      receptor,
      fecha,
      pagos: [{ fechaPago, doctos: [{ uuid, numParcialidad: n, impSaldoAnt: before, impPagado: paid }] }],
    });

  // Income.
  const i1 = newUuid();
  await put(
    sale(i1, CLIENT, '2025-03-01T00:00:00', { conceptos: [{ descripcion: 'Diseño', importe: 10000 }] }),
  );
  const acme = newUuid();
  await put(
    sale(acme, ACME, '2025-02-20T10:00:00', {
      metodoPago: 'PPD',
      conceptos: [{ descripcion: 'Consultoría', importe: 20000 }],
      retenciones: { isr: 0.0125, iva: 0.106667 },
    }),
  );
  await put(rep(ME, ACME, '2025-03-16T09:00:00', '2025-03-15T12:00:00', acme, ACME_FIRST, ACME_TOTAL));
  await put(
    rep(
      ME,
      ACME,
      '2025-04-10T09:00:00',
      '2025-04-10T12:00:00',
      acme,
      ACME_TOTAL - ACME_FIRST,
      ACME_TOTAL - ACME_FIRST,
      2,
    ),
  );
  // A complement issued in April for a payment of March 25, imported before its invoice.
  const i3 = newUuid();
  await put(rep(ME, CLIENT, '2025-04-02T09:00:00', '2025-03-25T12:00:00', i3, 5800, 5800));
  await put(
    sale(i3, CLIENT, '2025-03-05T10:00:00', {
      metodoPago: 'PPD',
      conceptos: [{ descripcion: 'Logo', importe: 5000 }],
    }),
  );
  // An export in dollars (0 %), on the month's last second.
  await put(
    sale(newUuid(), FOREIGN, '2025-03-31T23:59:59', {
      moneda: 'USD',
      tipoCambio: 17.5,
      ivaRate: 0,
      conceptos: [{ descripcion: 'Illustration', importe: 1000 }],
    }),
  );
  // A credit note for part of the first invoice.
  await put(
    sale(newUuid(), CLIENT, '2025-03-20T10:00:00', {
      tipoDeComprobante: 'E',
      conceptos: [{ descripcion: 'Descuento', importe: 1000 }],
      relacionados: [{ tipoRelacion: '01', uuids: [i1] }],
    }),
  );
  // Just outside March on both sides.
  await put(
    sale(newUuid(), CLIENT, '2025-02-28T23:59:59', { conceptos: [{ descripcion: 'Feb', importe: 700 }] }),
  );
  await put(
    sale(newUuid(), CLIENT, '2025-04-01T00:00:00', { conceptos: [{ descripcion: 'Abr', importe: 900 }] }),
  );
  // A payment whose invoice is not in Folio.
  await put(rep(ME, CLIENT, '2025-03-28T09:00:00', '2025-03-28T09:00:00', newUuid(), 300, 300));

  // Expenses.
  await put(
    purchase(SUPPLIER, '2025-03-10T10:00:00', { conceptos: [{ descripcion: 'Curso', importe: 2000 }] }),
  );
  await put(
    purchase(JOSE, '2025-03-12T10:00:00', {
      conceptos: [
        { descripcion: 'Papelería', importe: 1000, ivaRate: 8 },
        { descripcion: 'Libros', importe: 500, ivaRate: 0 },
        { descripcion: 'Renta', importe: 300, ivaRate: 'exento' },
      ],
    }),
  );
  const x3 = newUuid();
  await put(
    invoiceXml({
      uuid: x3,
      emisor: SUPPLIER,
      receptor: ME,
      fecha: '2025-03-22T10:00:00',
      metodoPago: 'PPD',
      conceptos: [{ descripcion: 'Equipo', importe: 4000 }],
    }),
  );
  await put(rep(SUPPLIER, ME, '2025-04-05T10:00:00', '2025-04-05T10:00:00', x3, 4640, 4640));

  // Manual expenses: the first paid on March 9, the second unpaid.
  const period = await request(t, 'POST', '/api/periods', {
    headers: bearer(u.token),
    body: { profile_id: profileId, año: 2025, mes: 3 },
  });
  const periodId = (await period.json()).data.id;
  const manual: string[] = [];
  for (const [fecha, subtotal] of [
    ['2025-03-08', 500],
    ['2025-03-18', 1000],
  ] as const) {
    const res = await request(t, 'POST', '/api/accrued-expenses', {
      headers: bearer(u.token),
      body: {
        profile_id: profileId,
        period_id: periodId,
        concepto: 'Gasto',
        subtotal,
        iva_amount: subtotal * 0.16,
        fecha,
        type: 'manual',
        // With its CFDI's UUID its IVA is creditable (LIVA 5-II; without: reports-iva-isr.test.ts).
        uuid_cfdi: newUuid(),
      },
    });
    expect(res.status).toBe(201);
    manual.push((await res.json()).data.id);
  }
  const paid = await request(t, 'PATCH', `/api/accrued-expenses/${manual[0]}`, {
    headers: bearer(u.token),
    body: { is_paid: true, payment_date: '2025-03-09' },
  });
  expect(paid.status).toBe(200);
}, 120_000);

afterAll(() => t?.close());

// March, by hand.
const INGRESOS = {
  // I1 10,000 + I3 5,000 + USD 1,000 × 17.5 − the note's 1,000; ACME's invoice is February's.
  documentos: 3,
  subtotal: 10000 + 5000 + 17500 - 1000,
  descuento: 0,
  iva_trasladado: 1600 + 800 + 0 - 160,
  retencion_iva: 0,
  retencion_isr: 0,
  total: 11600 + 5800 + 17500 - 1160,
  notas_credito: 1160,
};
const EGRESOS = {
  // SUPPLIER 2,000 @16 %, José 1,800 (1,000 @8 %, 500 @0 %, 300 exempt), SUPPLIER PPD 4,000 @16 %, manual 500 and 1,000 @16 %.
  documentos: 5,
  subtotal: 2000 + 1800 + 4000 + 500 + 1000,
  descuento: 0,
  iva_trasladado: 320 + 80 + 640 + 80 + 160,
  retencion_iva: 0,
  retencion_isr: 0,
  total: 2320 + 1880 + 4640 + 580 + 1160,
  notas_credito: 0,
};
// Collected: I1 (PUE), the note (its date), the USD export (PUE), I3's complete payment, and p of ACME's.
const COBRADO = {
  base: round2(10000 - 1000 + 17500 + 5000 + 20000 * p),
  iva_trasladado: round2(1600 - 160 + 0 + 800 + 3200 * p),
  retencion_iva: round2(2133.34 * p),
  retencion_isr: round2(250 * p),
  total: 11600 - 1160 + 17500 + 5800 + 10000,
  // By rate (tax-rules §4): everything at 16 % but the 0 % export.
  por_tasa: {
    tasa_16: { base: round2(10000 - 1000 + 5000 + 20000 * p), iva: round2(1600 - 160 + 800 + 3200 * p) },
    tasa_8: { base: 0, iva: 0 },
    tasa_0: { base: 17500, iva: 0 },
    exento: { base: 0, iva: 0 },
    no_objeto: { base: 0, iva: 0 },
  },
};
// Paid: the two PUE purchases and the first manual expense; the PPD one is paid in April.
const PAGADO = {
  base: 2000 + 1800 + 500,
  iva_trasladado: 320 + 80 + 80,
  retencion_iva: 0,
  retencion_isr: 0,
  total: 2320 + 1880 + 580,
  // SUPPLIER's and the manual expense at 16 %; José's papelería at 8 %, books at 0 %, rent exempt.
  por_tasa: {
    tasa_16: { base: 2000 + 500, iva: 320 + 80 },
    tasa_8: { base: 1000, iva: 80 },
    tasa_0: { base: 500, iva: 0 },
    exento: { base: 300, iva: 0 },
    no_objeto: { base: 0, iva: 0 },
  },
};

describe('GET /api/reports/monthly', () => {
  it('accrual income and expenses: the month’s I CFDI by their Fecha, credit notes subtracted, foreign currency at its TipoCambio', async () => {
    const { data } = await monthly();
    expect(data.profile).toEqual({ id: profileId, rfc: ME.rfc, nombre: ME.nombre });
    expect(data.periodo).toEqual({ año: 2025, mes: 3 });
    expect(data.ingresos).toEqual(INGRESOS);
    expect(data.egresos).toEqual(EGRESOS);
  });

  it('cash basis: PUE on its date, PPD by each payment’s FechaPago in proportion ImpPagado / Total, credit notes in their month', async () => {
    const { data } = await monthly();
    expect(data.flujo).toEqual({ cobrado: COBRADO, pagado: PAGADO });
  });

  it('IVA: saldo = trasladado cobrado − retenido por clientes − acreditable pagado; ISR withheld by clients', async () => {
    const { data } = await monthly();
    const saldo = round2(1600 - 160 + 800 + 3200 * p - 2133.34 * p - 480);
    expect(data.iva).toEqual({
      trasladado_cobrado: COBRADO.iva_trasladado,
      retenido_por_clientes: COBRADO.retencion_iva,
      acreditable_pagado: 480,
      retenido_a_proveedores: 0,
      saldo,
      a_cargo: Math.max(saldo, 0),
      a_favor: Math.max(-saldo, 0),
      // No exempt income: 100 %; every expense with its CFDI, none in cash; February left no balance a favor.
      proporcion: 100,
      no_acreditable: 0,
      saldos_a_favor_anteriores: 0,
    });
    expect(data.isr).toEqual({ retenido_por_clientes: round2(250 * p), retenido_a_proveedores: 0 });
  });

  it('per client and supplier: net of credit notes, summing to the accrual totals, largest first; RFC-less manual expenses under XAXX010101000', async () => {
    const { data } = await monthly();
    expect(data.por_cliente).toEqual([
      {
        rfc: FOREIGN.rfc,
        nombre: FOREIGN.nombre,
        documentos: 1,
        total: 17500,
        cobrado: 17500,
        saldo_pendiente: 0,
      },
      {
        rfc: CLIENT.rfc,
        nombre: CLIENT.nombre,
        documentos: 2,
        total: 11600 - 1160 + 5800,
        cobrado: 11600 - 1160 + 5800,
        saldo_pendiente: 0,
      },
      {
        rfc: ACME.rfc,
        nombre: ACME.nombre,
        documentos: 0,
        total: 0,
        cobrado: 10000,
        saldo_pendiente: round2(ACME_TOTAL - ACME_FIRST),
      },
    ]);
    expect(data.por_proveedor).toEqual([
      {
        rfc: SUPPLIER.rfc,
        nombre: SUPPLIER.nombre,
        documentos: 2,
        total: 2320 + 4640,
        pagado: 2320,
        saldo_pendiente: 4640,
      },
      { rfc: JOSE.rfc, nombre: JOSE.nombre, documentos: 1, total: 1880, pagado: 1880, saldo_pendiente: 0 },
      {
        rfc: 'XAXX010101000',
        nombre: 'Sin RFC',
        documentos: 2,
        total: 580 + 1160,
        pagado: 580,
        saldo_pendiente: 0,
      },
    ]);
    const sum = (rows: { total: number }[]) => round2(rows.reduce((s, r) => s + r.total, 0));
    expect(sum(data.por_cliente)).toBe(data.ingresos.total);
    expect(sum(data.por_proveedor)).toBe(data.egresos.total);
  });

  it('pendientes: PPD balances as of the month’s last day (a later payment does not count yet)', async () => {
    const { data } = await monthly();
    expect(data.pendientes).toEqual({
      por_cobrar: { documentos: 1, saldo: round2(ACME_TOTAL - ACME_FIRST) },
      por_pagar: { documentos: 1, saldo: 4640 },
    });
    const april = (await monthly(4)).data;
    expect(april.pendientes).toEqual({
      por_cobrar: { documentos: 0, saldo: 0 },
      por_pagar: { documentos: 0, saldo: 0 },
    });
    expect(april.flujo.cobrado.total).toBe(round2(ACME_TOTAL - ACME_FIRST + 900 * 1.16));
  });

  it('RESICO: LISR 113-E rate on the month’s collected income without IVA, minus the ISR withheld', async () => {
    const { data } = await monthly();
    const ingresos = 10000 - 1000 + 17500 + 5000 + 20000 * p; // 41,107.69: the 1.10 % bracket
    const causado = (ingresos * 1.1) / 100;
    expect(data.resico).toEqual({
      ingresos_cobrados: round2(ingresos),
      tasa: 1.1,
      isr_causado: round2(causado),
      isr_retenido: round2(250 * p),
      isr_a_pagar: round2(causado - 250 * p),
    });
  });

  it('advertencias: a payment whose invoice is missing; a closed month is not flagged open', async () => {
    const { data } = await monthly();
    // Besides the SAT-status notice every month of never-checked CFDI carries (sat-status.test.ts).
    const unchecked = (a: string) => a.includes('estatus ante el SAT desconocido');
    expect(data.advertencias.filter(unchecked)).toHaveLength(1);
    const rest = data.advertencias.filter((a: string) => !unchecked(a));
    expect(rest).toHaveLength(1);
    expect(rest[0]).toMatch(/no está en Folio/);
  });

  it('levels: FREE gets basic (no cash sections), BASIC complete (no resico), PRO advanced', async () => {
    try {
      await setPlan(t, u.id, 'PRO', 'CANCELLED');
      const free = (await monthly()).data;
      expect(free.nivel).toBe('basic');
      expect(Object.keys(free).sort()).toEqual([
        'advertencias',
        'egresos',
        'ingresos',
        'nivel',
        'periodo',
        'profile',
      ]);
      expect(free.ingresos).toEqual(INGRESOS);
      await setPlan(t, u.id, 'BASIC');
      const basic = (await monthly()).data;
      expect(basic.nivel).toBe('complete');
      expect(basic.resico).toBeUndefined();
      expect(basic.flujo).toEqual({ cobrado: COBRADO, pagado: PAGADO });
    } finally {
      await setPlan(t, u.id, 'PRO');
    }
    expect((await monthly()).data.nivel).toBe('advanced');
  });

  it('bad input → 400 (missing or out-of-range fields, unknown parameters, unknown formats)', async () => {
    const base = `/api/reports/monthly?profileId=${ME.rfc}`;
    for (const q of [
      '&año=2025',
      '&año=2025&mes=13',
      '&año=1800&mes=1',
      '&año=2025&mes=3&foo=1',
      '&año=2025&mes=3&format=docx',
    ]) {
      const res = await request(t, 'GET', base + q, { headers: bearer(u.token) });
      await expectError(res, 400, 'Bad Request');
    }
    await expectError(
      await request(t, 'GET', '/api/reports/monthly?año=2025&mes=3', { headers: bearer(u.token) }),
      400,
      'Bad Request',
    );
  });

  it('someone else’s profile → 403; an unknown one → 404; no token → 401', async () => {
    const other = await signUp(t);
    await expectError(
      await request(t, 'GET', `/api/reports/monthly?profileId=${profileId}&año=2025&mes=3`, {
        headers: bearer(other.token),
      }),
      403,
      'Forbidden',
    );
    await expectError(
      await request(t, 'GET', '/api/reports/monthly?profileId=nope&año=2025&mes=3', {
        headers: bearer(u.token),
      }),
      404,
      'Not Found',
    );
    await expectError(
      await request(t, 'GET', '/api/reports/monthly?profileId=x&año=2025&mes=3'),
      401,
      'Unauthorized',
    );
  });
});

describe('GET /api/reports/annual', () => {
  it('twelve months from one read of the year; totals add the months', async () => {
    const { status, body } = await get(`/api/reports/annual?profileId=${profileId}&año=2025`);
    expect(status).toBe(200);
    const { data } = body;
    expect(data.nivel).toBe('advanced');
    expect(data.meses).toHaveLength(12);
    expect(data.meses[2]).toEqual((await monthly()).data);
    expect(data.meses[3]).toEqual((await monthly(4)).data);
    // February: the 700 sale and ACME's invoice (20,000 − its withholdings).
    expect(data.meses[1].ingresos.total).toBe(round2(700 * 1.16 + ACME_TOTAL));
    expect(data.totales.ingresos.total).toBe(round2(700 * 1.16 + ACME_TOTAL + INGRESOS.total + 900 * 1.16));
    expect(data.totales.flujo.cobrado.total).toBe(
      round2(700 * 1.16 + COBRADO.total + ACME_TOTAL - ACME_FIRST + 900 * 1.16),
    );
  });

  it('FREE → 403 naming the plans that include it; the tRPC procedure answers the same', async () => {
    try {
      await setPlan(t, u.id, 'PRO', 'CANCELLED');
      const res = await request(t, 'GET', `/api/reports/annual?profileId=${profileId}&año=2025`, {
        headers: bearer(u.token),
      });
      expect(await expectError(res, 403, 'Forbidden')).toMatch(/BASIC or PRO/);
      await expect(trpcClient(t, u.token).reports.annual.query({ profileId, año: 2025 })).rejects.toThrow(
        /BASIC or PRO/,
      );
    } finally {
      await setPlan(t, u.id, 'PRO');
    }
  });
});

describe('GET /api/reports/diot', () => {
  it('suppliers paid in the month by IVA rate: 04 national, 15 global for RFC-less manual expenses; unpaid ones absent', async () => {
    const { status, body } = await get(`/api/reports/diot?profileId=${ME.rfc}&año=2025&mes=3`);
    expect(status).toBe(200);
    expect(body.data.periodo).toEqual({ año: 2025, mes: 3 });
    const zero = { base_16: 0, iva_16: 0, base_8: 0, iva_8: 0, base_0: 0, base_exenta: 0, iva_retenido: 0 };
    expect(body.data.proveedores).toMatchObject([
      // Only the PUE course: the PPD equipment is paid in April.
      {
        ...zero,
        rfc: SUPPLIER.rfc,
        nombre: SUPPLIER.nombre,
        tipo_tercero: '04',
        base_16: 2000,
        iva_16: 320,
        documentos: 1,
      },
      // 1,000 at 8 %, 500 at 0 %, 300 exempt.
      {
        ...zero,
        rfc: JOSE.rfc,
        nombre: JOSE.nombre,
        tipo_tercero: '04',
        base_8: 1000,
        iva_8: 80,
        base_0: 500,
        base_exenta: 300,
        documentos: 1,
      },
      {
        ...zero,
        rfc: 'XAXX010101000',
        nombre: 'Sin RFC',
        tipo_tercero: '15',
        base_16: 500,
        iva_16: 80,
        documentos: 1,
      },
    ]);
  });

  it('BASIC → 403 naming PRO', async () => {
    try {
      await setPlan(t, u.id, 'BASIC');
      const res = await request(t, 'GET', `/api/reports/diot?profileId=${profileId}&año=2025&mes=3`, {
        headers: bearer(u.token),
      });
      expect(await expectError(res, 403, 'Forbidden')).toMatch(/requires the PRO plan/);
    } finally {
      await setPlan(t, u.id, 'PRO');
    }
  });
});

describe('documents alike are summed in the database', () => {
  it('two sales to one client and two purchases from one supplier count as two documents each, amounts added', async () => {
    const { u: other, p: company } = await profileOfMe(t, 'PRO');
    const id = company.id;
    const day = (d: number) => `2025-05-${String(d).padStart(2, '0')}T10:00:00`;
    for (const [d, importe] of [
      [3, 1000],
      [28, 2500.5],
    ] as const) {
      await imported(
        t,
        other,
        id,
        invoiceXml({
          uuid: newUuid(),
          emisor: COMPANY,
          receptor: CLIENT,
          fecha: day(d),
          conceptos: [{ descripcion: 'Venta', importe }],
        }),
      );
      await imported(
        t,
        other,
        id,
        invoiceXml({
          uuid: newUuid(),
          emisor: SUPPLIER,
          receptor: COMPANY,
          fecha: day(d),
          conceptos: [{ descripcion: 'Compra', importe }],
        }),
      );
    }
    const headers = bearer(other.token);
    const report = (
      await (
        await request(t, 'GET', `/api/reports/monthly?profileId=${id}&año=2025&mes=5`, { headers })
      ).json()
    ).data;
    const total = round2(1000 * 1.16 + 2500.5 + round2(2500.5 * 0.16));
    expect(report.ingresos).toMatchObject({ documentos: 2, subtotal: 3500.5, total });
    expect(report.por_cliente).toEqual([
      { rfc: CLIENT.rfc, nombre: CLIENT.nombre, documentos: 2, total, cobrado: total, saldo_pendiente: 0 },
    ]);
    const diot = (
      await (await request(t, 'GET', `/api/reports/diot?profileId=${id}&año=2025&mes=5`, { headers })).json()
    ).data;
    expect(diot.proveedores).toMatchObject([
      {
        rfc: SUPPLIER.rfc,
        nombre: SUPPLIER.nombre,
        tipo_tercero: '04',
        base_16: 3500.5,
        iva_16: round2(160 + round2(2500.5 * 0.16)),
        base_8: 0,
        iva_8: 0,
        base_0: 0,
        base_exenta: 0,
        iva_retenido: 0,
        documentos: 2,
      },
    ]);
  });
});

describe('payments in dollars, through the real import', () => {
  it('TipoCambioP and the complement’s TrasladosDR; a peso payment through EquivalenciaDR; the balance at the invoice’s rate', async () => {
    const { u: other, p: company } = await profileOfMe(t, 'BASIC');
    const id = company.id;
    // 1,000 USD + IVA 160 = 1,160 USD at 17.00, paid half in April (in dollars at 18.50, the
    // complement stating base 499.99 and IVA 80) and half in May (11,600 pesos: EquivalenciaDR 0.05).
    const usd = newUuid();
    await imported(
      t,
      other,
      id,
      invoiceXml({
        uuid: usd,
        emisor: COMPANY,
        receptor: CLIENT,
        fecha: '2025-04-02T10:00:00',
        metodoPago: 'PPD',
        moneda: 'USD',
        tipoCambio: 17,
      }),
    );
    const pay = (fechaPago: string, doc: Parameters<typeof paymentXml>[0]['pagos'][number]) =>
      imported(
        t,
        other,
        id,
        paymentXml({ uuid: newUuid(), emisor: COMPANY, receptor: CLIENT, fecha: fechaPago, pagos: [doc] }),
      );
    await pay('2025-04-20T10:00:00', {
      fechaPago: '2025-04-20T10:00:00',
      monedaP: 'USD',
      tipoCambioP: 18.5,
      doctos: [
        {
          uuid: usd,
          monedaDR: 'USD',
          numParcialidad: 1,
          impSaldoAnt: 1160,
          impPagado: 580,
          // The issuer's own rounding (499.99, not 500.00): read as written, not recomputed.
          impuestosDR: { traslados: [{ base: 499.99, tasa: 0.16, importe: 80 }] },
        },
      ],
    });
    await pay('2025-05-06T10:00:00', {
      fechaPago: '2025-05-06T10:00:00',
      monedaP: 'MXN',
      doctos: [
        {
          uuid: usd,
          monedaDR: 'USD',
          equivalenciaDR: 0.05,
          numParcialidad: 2,
          impSaldoAnt: 580,
          impPagado: 580,
        },
      ],
    });
    const headers = bearer(other.token);
    const month = async (mes: number) =>
      (
        await (
          await request(t, 'GET', `/api/reports/monthly?profileId=${id}&año=2025&mes=${mes}`, { headers })
        ).json()
      ).data;
    const april = await month(4);
    expect(april.ingresos).toMatchObject({
      documentos: 1,
      subtotal: 1000 * 17,
      iva_trasladado: 160 * 17,
      total: 1160 * 17,
    });
    expect(april.flujo.cobrado).toMatchObject({
      base: round2(499.99 * 18.5),
      iva_trasladado: 80 * 18.5,
      retencion_iva: 0,
      retencion_isr: 0,
      total: 580 * 18.5,
    });
    expect(april.pendientes.por_cobrar).toEqual({ documentos: 1, saldo: 580 * 17 });
    const may = await month(5);
    // No TrasladosDR: the invoice's taxes in proportion 580 / 1,160, in pesos at 1 / 0.05.
    expect(may.flujo.cobrado).toMatchObject({
      base: (1000 * 0.5) / 0.05,
      iva_trasladado: (160 * 0.5) / 0.05,
      retencion_iva: 0,
      retencion_isr: 0,
      total: 580 / 0.05,
    });
    expect(may.pendientes.por_cobrar).toEqual({ documentos: 0, saldo: 0 });
  });
});

describe('format=xlsx', () => {
  const xlsx = async (path: string) => {
    const res = await request(t, 'GET', path, { headers: bearer(u.token) });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    return { wb, disposition: res.headers.get('content-disposition') };
  };
  const rowsOf = (ws: ExcelJS.Worksheet | undefined) => {
    const rows: unknown[][] = [];
    ws?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  };

  it('the monthly report as a workbook: one sheet per section of the level, amounts as numbers', async () => {
    const { wb, disposition } = await xlsx(
      `/api/reports/monthly?profileId=${ME.rfc}&año=2025&mes=3&format=xlsx`,
    );
    expect(disposition).toContain(`filename="reporte-mensual-${ME.rfc}-2025-03.xlsx"`);
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      'Ingresos y egresos',
      'Flujo',
      'IVA por tasa',
      'IVA',
      'ISR',
      'RESICO',
      'Por cliente',
      'Por proveedor',
      'Pendientes',
      'Advertencias',
    ]);
    const totals = rowsOf(wb.getWorksheet('Ingresos y egresos'));
    expect(totals[0]).toEqual(['Concepto', 'Ingresos', 'Egresos']);
    expect(totals).toContainEqual(['Total', INGRESOS.total, EGRESOS.total]);
    expect(rowsOf(wb.getWorksheet('Flujo'))).toContainEqual(['Total', COBRADO.total, PAGADO.total]);
    expect(rowsOf(wb.getWorksheet('IVA por tasa'))).toContainEqual([
      '8 %',
      0,
      0,
      PAGADO.por_tasa.tasa_8.base,
      PAGADO.por_tasa.tasa_8.iva,
    ]);
    expect(rowsOf(wb.getWorksheet('Por cliente'))[1]).toEqual([
      FOREIGN.rfc,
      FOREIGN.nombre,
      1,
      17500,
      17500,
      0,
    ]);
  });

  it('the annual report: a row per month; the DIOT: a row per supplier', async () => {
    const annual = await xlsx(`/api/reports/annual?profileId=${profileId}&año=2025&format=xlsx`);
    const months = rowsOf(annual.wb.getWorksheet('Meses'));
    expect(months).toHaveLength(13);
    expect(months[3]?.slice(0, 3)).toEqual([3, INGRESOS.total, EGRESOS.total]);
    const diot = await xlsx(`/api/reports/diot?profileId=${profileId}&año=2025&mes=3&format=xlsx`);
    expect(rowsOf(diot.wb.getWorksheet('DIOT'))).toContainEqual([
      SUPPLIER.rfc,
      SUPPLIER.nombre,
      // A course (ClaveProdServ 80101500, a service) from a persona moral, nothing withheld: 85.
      '04 85',
      2000,
      320,
      0,
      0,
      0,
      0,
      0,
      1,
    ]);
  });

  it('FREE → 403 naming the plans with Excel; over tRPC a file format → 400', async () => {
    try {
      await setPlan(t, u.id, 'PRO', 'CANCELLED');
      const res = await request(
        t,
        'GET',
        `/api/reports/monthly?profileId=${profileId}&año=2025&mes=3&format=xlsx`,
        {
          headers: bearer(u.token),
        },
      );
      expect(await expectError(res, 403, 'Forbidden')).toBe(
        'Excel export requires the BASIC or PRO plan; upgrade with POST /api/subscription/create-checkout',
      );
    } finally {
      await setPlan(t, u.id, 'PRO');
    }
    await expect(
      trpcClient(t, u.token).reports.monthly.query({ profileId, año: 2025, mes: 3, format: 'xlsx' }),
    ).rejects.toThrow(/REST route/);
    await expect(
      trpcClient(t, u.token).reports.annual.query({ profileId, año: 2025, format: 'pdf' }),
    ).rejects.toThrow(/REST route/);
    const unknown = await request(
      t,
      'GET',
      `/api/reports/monthly?profileId=${profileId}&año=2025&mes=3&format=xlsx&x=1`,
      {
        headers: bearer(u.token),
      },
    );
    await expectError(unknown, 400, 'Bad Request');
  });
});

// The PDF read back as a person's tools read it (pdftotext, pdftoppm); the first pages are kept in
// test-output/report-pdf/ for a person to look at.
describe.skipIf(!hasPoppler)('format=pdf', () => {
  const OUT = fileURLToPath(new URL('../test-output/report-pdf/', import.meta.url));
  const pdf = async (path: string) => {
    const res = await request(t, 'GET', path, { headers: bearer(u.token) });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    return { bytes, text: pdfText(bytes), disposition: res.headers.get('content-disposition') };
  };
  const pesos = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

  it('the monthly report: profile, period, every section of the level as a table, amounts as es-MX pesos, advertencias', async () => {
    const { bytes, text, disposition } = await pdf(
      `/api/reports/monthly?profileId=${ME.rfc}&año=2025&mes=3&format=pdf`,
    );
    expect(disposition).toContain(`filename="reporte-mensual-${ME.rfc}-2025-03.pdf"`);
    expect(text).toContain('Reporte mensual · marzo 2025');
    expect(text).toContain(`${ME.nombre} · RFC ${ME.rfc}`);
    for (const section of [
      'Ingresos y egresos',
      'Flujo',
      'IVA',
      'ISR',
      'RESICO',
      'Por cliente',
      'Por proveedor',
      'Pendientes',
      'Advertencias',
    ])
      expect(text).toContain(section);
    // 11,600 + 5,800 + 17,500 − 1,160 = 33,740.00 income; 2,320 + 1,880 + 4,640 + 580 + 1,160 = 10,580.00 expenses.
    expect(text).toContain(`Total ${pesos(33740)} ${pesos(10580)}`);
    // Collected: 11,600 − 1,160 + 17,500 + 5,800 + 10,000 = 43,740.00; paid 2,320 + 1,880 + 580 = 4,780.00.
    expect(text).toContain(`Total ${pesos(43740)} ${pesos(4780)}`);
    expect(text).toContain(`Documentos 3 5`);
    expect(text).toContain(`${FOREIGN.rfc} ${FOREIGN.nombre} 1 ${pesos(17500)} ${pesos(17500)} ${pesos(0)}`);
    expect(text).toMatch(/no está en Folio/);
    mkdirSync(OUT, { recursive: true });
    writeFileSync(`${OUT}reporte-mensual-pagina-1.png`, pageImage(bytes, 1));
  });

  it('the annual report: a chart of the twelve months (legend, month labels), the months as a table; the DIOT as a table', async () => {
    const { bytes, text, disposition } = await pdf(
      `/api/reports/annual?profileId=${profileId}&año=2025&format=pdf`,
    );
    expect(disposition).toContain(`filename="reporte-anual-${ME.rfc}-2025.pdf"`);
    expect(text).toContain('Reporte anual · 2025');
    expect(text).toContain('Los doce meses');
    for (const word of ['Ingresos', 'Egresos', 'IVA a cargo', 'ene', 'jun', 'dic'])
      expect(text).toContain(word);
    expect(text).toContain(`marzo ${pesos(33740)} ${pesos(10580)}`);
    expect(pdfPages(bytes)).toBeGreaterThanOrEqual(2);
    mkdirSync(OUT, { recursive: true });
    writeFileSync(`${OUT}reporte-anual-pagina-1.png`, pageImage(bytes, 1));

    const diot = await pdf(`/api/reports/diot?profileId=${profileId}&año=2025&mes=3&format=pdf`);
    expect(diot.disposition).toContain(`filename="diot-${ME.rfc}-2025-03.pdf"`);
    expect(diot.text).toContain('DIOT · marzo 2025');
    expect(diot.text).toContain(`${SUPPLIER.rfc} ${SUPPLIER.nombre} 04 85 ${pesos(2000)} ${pesos(320)}`);
  });

  it('needs exportPDF: FREE → 403 naming the plans; BASIC gets its level (no RESICO section)', async () => {
    const path = `/api/reports/monthly?profileId=${profileId}&año=2025&mes=3&format=pdf`;
    try {
      await setPlan(t, u.id, 'PRO', 'CANCELLED');
      const res = await request(t, 'GET', path, { headers: bearer(u.token) });
      expect(await expectError(res, 403, 'Forbidden')).toBe(
        'PDF export requires the BASIC or PRO plan; upgrade with POST /api/subscription/create-checkout',
      );
      await setPlan(t, u.id, 'BASIC');
      const { text } = await pdf(path);
      expect(text).toContain('Flujo');
      expect(text).not.toContain('RESICO');
    } finally {
      await setPlan(t, u.id, 'PRO');
    }
  });
});

describe('rows imported before the tax-detail migration', () => {
  const pendingDetail = (n: number) =>
    `${n} CFDI del periodo aún ${n === 1 ? 'no tiene' : 'no tienen'} el desglose de IVA por tasa; ` +
    'las cifras se completarán cuando termine la actualización';
  const aboutDetail = (advertencias: string[]) => advertencias.filter((a) => a.includes('desglose de IVA'));

  it('until the back-fill reaches them, each month’s advertencias count the CFDI its figures read that lack IVA by rate (monthly, annual, DIOT; REST and tRPC)', async () => {
    const ids = (
      await t.handle.db.select({ id: cfdis.id }).from(cfdis).where(eq(cfdis.profileId, profileId))
    ).map((r) => r.id);
    expect(aboutDetail((await monthly()).data.advertencias)).toEqual([]);
    await forgetTaxDetail(t.handle.db, ids);
    try {
      // March: its 7 I/E documents (I1, I3, the USD export, the credit note; SUPPLIER's, José's and
      // the PPD x3), the 3 complements with payments in March (ACME's first, I3's, the one of the
      // missing invoice) and ACME's invoice they pay, dated in February (I3 is among the 7).
      const march = [pendingDetail(7 + 3 + 1)];
      expect(aboutDetail((await monthly()).data.advertencias)).toEqual(march);
      const viaTrpc = await trpcClient(t, u.token).reports.monthly.query({ profileId, año: 2025, mes: 3 });
      expect(aboutDetail(viaTrpc.data.advertencias)).toEqual(march);
      // The DIOT reads the month's income too (its IVA proportion, LIVA 5-V): the same 7 + 3 + 1.
      const diot = (await get(`/api/reports/diot?profileId=${profileId}&año=2025&mes=3`)).body;
      expect(aboutDetail(diot.data.advertencias)).toEqual(march);
      // February: ACME's invoice and the sale of the 28th. April: the sale of the 1st, the complements
      // of ACME's rest and of x3, and ACME's invoice (x3 is March's, not April's document).
      const annual = (await get(`/api/reports/annual?profileId=${profileId}&año=2025`)).body;
      expect(annual.data.meses.map((m: { advertencias: string[] }) => aboutDetail(m.advertencias))).toEqual([
        [],
        [pendingDetail(2)],
        march,
        [pendingDetail(1 + 2 + 1 + 1)],
        ...Array.from({ length: 8 }, () => []),
      ]);
    } finally {
      await backfillTaxDetail(t.handle.db);
    }
    expect(aboutDetail((await monthly()).data.advertencias)).toEqual([]);
    const diot = (await get(`/api/reports/diot?profileId=${profileId}&año=2025&mes=3`)).body;
    expect(aboutDetail(diot.data.advertencias)).toEqual([]);
  });

  it('once back-filled from their XML, give the very reports a fresh import gives (monthly, annual, DIOT)', async () => {
    const reports = async () => ({
      monthly: await monthly(),
      annual: (await get(`/api/reports/annual?profileId=${profileId}&año=2025`)).body,
      diot: (await get(`/api/reports/diot?profileId=${profileId}&año=2025&mes=3`)).body,
    });
    const fresh = await reports();
    expect(fresh.monthly.data.nivel).toBe('advanced');
    const ids = (
      await t.handle.db.select({ id: cfdis.id }).from(cfdis).where(eq(cfdis.profileId, profileId))
    ).map((r) => r.id);
    await forgetTaxDetail(t.handle.db, ids);
    // Until then the DIOT has only each document's own rate: José's 8 %, 0 % and exempt lines merge.
    const jose = (r: Awaited<ReturnType<typeof reports>>) =>
      r.diot.data.proveedores.find((s: { rfc: string }) => s.rfc === JOSE.rfc);
    expect(jose(await reports())).not.toEqual(jose(fresh));

    expect(await backfillTaxDetail(t.handle.db)).toEqual({ filled: ids.length, unreadable: 0 });
    expect(await reports()).toEqual(fresh);
  });
});
