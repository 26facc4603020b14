// The DIOT's IVA columns come from the monthly report's creditable-IVA rules (tax-rules §4, §6;
// docs/diot.md): one March 2025 mixing every case, worked by hand below, through REST and tRPC.

import { round2 } from '@folio/cfdi';
import { invoiceXml, newUuid, type Party, paymentXml } from '@folio/cfdi/testing';
import { beforeAll, describe, expect, it } from 'vitest';
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
const SUPPLIER: Party = { rfc: 'EKU9003173C9', nombre: 'Escuela Kemper Urgate', regimen: '601' };
const MUEBLES: Party = { rfc: 'MUE010101AB1', nombre: 'Muebles del Norte', regimen: '601' };
const EQUIPOS: Party = { rfc: 'EQU010101AB2', nombre: 'Equipos del Bajío', regimen: '601' };
const GAS: Party = { rfc: 'GAS020202AB1', nombre: 'Gasolinera del Centro', regimen: '601' };

let t: TestApp;
let u: TestUser;
let id: string;

const sale = (
  emisor: Party,
  receptor: Party,
  fecha: string,
  extra: Partial<Parameters<typeof invoiceXml>[0]>,
) => invoiceXml({ uuid: newUuid(), emisor, receptor, fecha, ...extra });

async function manualExpense(fields: Record<string, unknown>) {
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

beforeAll(async () => {
  t = await startTestApp();
  u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  id = (
    await createProfile(t, u, {
      nombre: ANA.nombre,
      rfc: ANA.rfc,
      tipo_persona: 'FISICA',
      regimenes_fiscales: ['612'],
    })
  ).id;
  const put = (xml: string) => imported(t, u, id, xml);
  // Sales collected (PUE): 60,000.00 taxed at 16 % and 20,000.00 exempt (books, LIVA 9-III).
  await put(
    sale(ANA, CLIENT, '2025-03-02T10:00:00', { conceptos: [{ descripcion: 'Venta', importe: 60000 }] }),
  );
  await put(
    sale(ANA, CLIENT, '2025-03-03T10:00:00', {
      conceptos: [{ descripcion: 'Libros', importe: 20000, ivaRate: 'exento' }],
    }),
  );
  // A: by transfer (FormaPago 03), 10,000.00 + IVA 1,600.00, no uso_iva: prorated.
  await put(
    sale(SUPPLIER, ANA, '2025-03-04T10:00:00', { conceptos: [{ descripcion: 'Renta', importe: 10000 }] }),
  );
  // B: PUE in cash, 3,000.00 + 480.00 = 3,480.00 > 2,000.00 (LISR 27-III).
  await put(
    sale(MUEBLES, ANA, '2025-03-05T10:00:00', {
      formaPago: '01',
      conceptos: [{ descripcion: 'Silla', importe: 3000 }],
    }),
  );
  // C: fuel (15101505) in cash, 500.00 + 80.00 = 580.00, under 2,000.00 and still not creditable.
  await put(
    sale(GAS, ANA, '2025-03-06T10:00:00', {
      formaPago: '01',
      conceptos: [{ descripcion: 'Gasolina', importe: 500, claveProdServ: '15101505' }],
    }),
  );
  // D: PPD 3,000.00 + 480.00; the supplier's REP pays 1,000.00 in cash (FormaDePagoP 01).
  const d = newUuid();
  await put(
    invoiceXml({
      uuid: d,
      emisor: EQUIPOS,
      receptor: ANA,
      fecha: '2025-03-07T10:00:00',
      metodoPago: 'PPD',
      conceptos: [{ descripcion: 'Equipo', importe: 3000 }],
    }),
  );
  await put(
    paymentXml({
      uuid: newUuid(),
      emisor: EQUIPOS,
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
  // Manual expenses: with their CFDI's UUID, one used only for taxed acts and one only for exempt
  // ones; one without any support (LIVA 5-II).
  const manual = { rfc_emisor: SUPPLIER.rfc, nombre_emisor: SUPPLIER.nombre };
  await manualExpense({
    ...manual,
    subtotal: 1000,
    iva_amount: 160,
    uuid_cfdi: newUuid(),
    uso_iva: 'gravado',
  });
  await manualExpense({
    ...manual,
    subtotal: 1000,
    iva_amount: 160,
    uuid_cfdi: newUuid(),
    uso_iva: 'exento',
  });
  await manualExpense({ ...manual, subtotal: 500, iva_amount: 80 });
});

async function monthlyIva() {
  const res = await request(t, 'GET', `/api/reports/monthly?profileId=${id}&año=2025&mes=3`, {
    headers: bearer(u.token),
  });
  expect(res.status).toBe(200);
  return (await res.json()).data.iva;
}

/** The DIOT's IVA columns summed over suppliers and zones (REST, checked equal to tRPC). */
async function diotColumns() {
  const res = await request(t, 'GET', `/api/reports/diot?profileId=${id}&año=2025&mes=3&format=json`, {
    headers: bearer(u.token),
  });
  expect(res.status).toBe(200);
  const data = (await res.json()).data;
  expect((await caller(t, u.token).reports.diot({ profileId: id, año: 2025, mes: 3 })).data).toEqual(data);
  const sums: Record<string, number> = {};
  for (const p of data.proveedores) {
    for (const group of [p.iva_acreditable, p.iva_no_acreditable]) {
      for (const zona of Object.values(group) as Record<string, number>[]) {
        for (const [k, v] of Object.entries(zona)) sums[k] = round2((sums[k] ?? 0) + v);
      }
    }
  }
  const sum = (...keys: string[]) => round2(keys.reduce((n, k) => n + (sums[k] ?? 0), 0));
  const acreditable = sum('exclusivamente_gravadas', 'con_proporcion');
  const noAcreditable = sum('por_proporcion', 'no_cumple_requisitos', 'exentas', 'no_objeto');
  return { sums, acreditable, noAcreditable, advertencias: data.advertencias as string[] };
}

// D's cash share: 480.00 × 1,000.00 ÷ 3,480.00 = 137.931… (the REP pays that share of its IVA).
const ivaD = (480 * 1000) / 3480;

describe('the DIOT credits IVA by the monthly report’s rules (LIVA 5-I, 5-II, 5-V, 5-B)', () => {
  it('proportion of the month: its creditable + non-creditable IVA equal acreditable_pagado + no_acreditable, column by column', async () => {
    // LIVA 5-V: 60,000 ÷ (60,000 + 20,000) = 75.00 %.
    const iva = await monthlyIva();
    expect(iva.proporcion).toBe(75);
    // Creditable: A 1,600 × 75 % = 1,200 + manual gravado 160 = 1,360.
    expect(iva.acreditable_pagado).toBe(1600 * 0.75 + 160);
    // Not: A's 400 by the proportion, B 480 and D 137.93 in cash over 2,000, C 80 fuel in cash,
    // manual exento 160, manual without CFDI 80.
    expect(iva.no_acreditable).toBe(round2(1600 * 0.25 + 480 + ivaD + 80 + 160 + 80));

    const diot = await diotColumns();
    expect(diot.sums).toEqual({
      exclusivamente_gravadas: 160,
      con_proporcion: 1600 * 0.75,
      por_proporcion: 1600 * 0.25,
      no_cumple_requisitos: round2(480 + ivaD + 80 + 80),
      exentas: 160,
      no_objeto: 0,
    });
    expect(diot.acreditable).toBe(iva.acreditable_pagado);
    expect(diot.noAcreditable).toBe(iva.no_acreditable);
    expect(diot.advertencias).toContain(
      'IVA "con proporción" al 75.00 % del mes (LIVA arts. 5-V y 4-A), a todo gasto sin uso_iva: una estimación, como en el reporte mensual',
    );
    expect(diot.advertencias.filter((a) => a.includes('"no cumple requisitos"'))).toHaveLength(3);
  });

  it('a fixed 5-B proportion moves both reports alike', async () => {
    const fixed = await request(t, 'PUT', `/api/profiles/${id}/iva-proporcion-5b`, {
      headers: bearer(u.token),
      body: { año: 2025, proporcion: 80 },
    });
    expect(fixed.status).toBe(200);
    const iva = await monthlyIva();
    // LIVA 5-B: 1,600 × 80 % = 1,280 + 160 = 1,440; not: 320 + 480 + 137.93 + 80 + 160 + 80.
    expect(iva.acreditable_pagado).toBe(1600 * 0.8 + 160);
    expect(iva.no_acreditable).toBe(round2(1600 * 0.2 + 480 + ivaD + 80 + 160 + 80));
    const diot = await diotColumns();
    expect(diot.sums).toMatchObject({ con_proporcion: 1600 * 0.8, por_proporcion: 1600 * 0.2 });
    expect(diot.acreditable).toBe(iva.acreditable_pagado);
    expect(diot.noAcreditable).toBe(iva.no_acreditable);
    expect(diot.advertencias).toContain(
      'IVA "con proporción" a la proporción fija del año, 80.00 % (LIVA art. 5-B)',
    );
  });
});
