import { invoiceXml, newUuid, type Party, paymentXml } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  caller,
  createProfile,
  expectError,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
  uploadXml,
} from './harness';

let t: TestApp;
let u: TestUser;
const ids: Record<string, string> = {};
let profileA: string;
let profileB: string;

const A: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };
const B: Party = { rfc: 'GOMA800101AB6', nombre: 'Ana Gómez', regimen: '612' };
const ACME: Party = { rfc: 'ACM010101AB3', nombre: 'Acmé Maquinaria', regimen: '601' };
const JOSE: Party = { rfc: 'PEJJ800101AA2', nombre: 'José Pérez Núñez', regimen: '626' };

beforeAll(async () => {
  t = await startTestApp();
  u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  profileA = (
    await createProfile(t, u, {
      nombre: A.nombre,
      rfc: A.rfc,
      tipo_persona: 'MORAL',
      regimenes_fiscales: ['601'],
    })
  ).id;
  profileB = (
    await createProfile(t, u, {
      nombre: B.nombre,
      rfc: B.rfc,
      tipo_persona: 'FISICA',
      regimenes_fiscales: ['612'],
    })
  ).id;
  const put = async (label: string, profileId: string, xml: string) => {
    const res = await uploadXml(t, u, profileId, xml);
    ids[label] = (await res.json()).data.files[0].id;
  };
  ids.ppdUuid = newUuid();
  await put(
    'aJan',
    profileA,
    invoiceXml({ uuid: newUuid(), emisor: A, receptor: ACME, fecha: '2025-01-31T23:59:59' }),
  );
  await put(
    'aFeb',
    profileA,
    invoiceXml({
      uuid: ids.ppdUuid,
      emisor: A,
      receptor: JOSE,
      fecha: '2025-02-01T00:00:01',
      metodoPago: 'PPD',
    }),
  );
  await put(
    'aRep',
    profileA,
    paymentXml({
      uuid: newUuid(),
      emisor: A,
      receptor: JOSE,
      fecha: '2025-02-15T10:00:00',
      pagos: [
        {
          fechaPago: '2025-02-15T10:00:00',
          doctos: [{ uuid: ids.ppdUuid, numParcialidad: 1, impSaldoAnt: 1160, impPagado: 500 }],
        },
      ],
    }),
  );
  await put(
    'bFeb',
    profileB,
    invoiceXml({ uuid: newUuid(), emisor: B, receptor: ACME, fecha: '2025-02-10T12:00:00' }),
  );
  await put(
    'aExpense',
    profileA,
    invoiceXml({ uuid: newUuid(), emisor: ACME, receptor: A, fecha: '2025-02-11T12:00:00' }),
  );
});
afterAll(() => t.close());

const list = async (query = '', who: TestUser = u) => {
  const res = await request(t, 'GET', `/api/invoices${query}`, { headers: bearer(who.token) });
  expect(res.status).toBe(200);
  return res.json() as Promise<{ data: Record<string, any>[]; pagination: Record<string, number> }>;
};
const idsOf = (b: { data: Record<string, any>[] }) => b.data.map((i) => i.id as string);

describe('GET /api/invoices', () => {
  it('lists the income CFDI of all your profiles (complements included), newest first, default limit 50', async () => {
    const body = await list();
    expect(idsOf(body)).toEqual([ids.aRep, ids.bFeb, ids.aFeb, ids.aJan]);
    expect(body.pagination).toEqual({ total: 4, page: 1, limit: 50, totalPages: 1 });
  });

  it('returns each invoice with exactly the spec fields (plus the additive kind and currency ones), validacion and estadoPago included', async () => {
    const inv = (await list()).data.find((i) => i.id === ids.aFeb)!;
    expect(Object.keys(inv).sort()).toEqual(
      [
        'id',
        'profile_id',
        'uuid',
        'fecha',
        'mes',
        'año',
        'total',
        'subtotal',
        'iva',
        'iva_amount',
        'retencion_iva_amount',
        'retencion_isr_amount',
        'tipo',
        'tipo_comprobante',
        'moneda',
        'total_mxn',
        'rfc_emisor',
        'nombre_emisor',
        'regimen_fiscal_emisor',
        'rfc_receptor',
        'nombre_receptor',
        'regimen_fiscal_receptor',
        'concepto',
        'pagos',
        'complemento_pago',
        'validacion',
        'estadoPago',
        'profile',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(Object.keys(inv.validacion).sort()).toEqual([
      'advertencias',
      'errores',
      'regimenFiscalVerificado',
      'rfcVerificado',
      'uuidDuplicado',
      'valido',
    ]);
    expect(inv.estadoPago).toEqual({
      estado: 'PAGO_PARCIAL',
      totalFactura: 1160,
      totalPagado: 500,
      saldoPendiente: 660,
      porcentajePagado: 43.1,
      completamentePagado: false,
      ultimoSaldoInsoluto: 660,
      tieneComplementos: true,
      tienePagosManuales: false,
    });
    expect(inv.profile).toEqual({ id: profileA, nombre: A.nombre, rfc: A.rfc });
    expect(inv).toMatchObject({
      tipo: 'PPD',
      mes: 2,
      año: 2025,
      iva: 16,
      complemento_pago: null,
      pagos: [{ monto: 500 }],
    });
  });

  it('takes mes and año from the literal date (no time-zone shift at the month boundary)', async () => {
    expect(idsOf(await list('?mes=1&año=2025'))).toEqual([ids.aJan]);
    expect(idsOf(await list('?mes=2&a%C3%B1o=2025'))).toEqual([ids.aRep, ids.bFeb, ids.aFeb]);
  });

  it('filters by profile and by regimen_fiscal on either side', async () => {
    expect(idsOf(await list(`?profileId=${profileB}`))).toEqual([ids.bFeb]);
    expect(idsOf(await list('?regimen_fiscal=626')).sort()).toEqual([ids.aRep, ids.aFeb].sort());
    expect(idsOf(await list('?regimen_fiscal=612'))).toEqual([ids.bFeb]);
  });

  it('searches UUID, RFCs and names, case- and accent-insensitively', async () => {
    expect(idsOf(await list('?search=jose perez')).sort()).toEqual([ids.aRep, ids.aFeb].sort());
    expect(idsOf(await list('?search=ACME')).sort()).toEqual([ids.bFeb, ids.aJan].sort());
    expect(idsOf(await list(`?search=${ids.ppdUuid!.slice(0, 13).toLowerCase()}`))).toEqual([ids.aFeb]);
    expect(idsOf(await list('?search=goma800101'))).toEqual([ids.bFeb]);
    expect(idsOf(await list('?search=100%25_'))).toEqual([]);
  });

  it('counts every match of a search, not only the page (and a page past the end still has it)', async () => {
    const first = await list('?search=jose perez&limit=1');
    expect(idsOf(first)).toEqual([ids.aRep]);
    expect(first.pagination).toEqual({ total: 2, page: 1, limit: 1, totalPages: 2 });
    expect((await list('?search=jose perez&limit=1&page=5')).pagination).toMatchObject({ total: 2 });
  });

  it('pages with limit and page; total is over the filtered set', async () => {
    const page = await list('?limit=2&page=2');
    expect(idsOf(page)).toEqual([ids.aFeb, ids.aJan]);
    expect(page.pagination).toEqual({ total: 4, page: 2, limit: 2, totalPages: 2 });
    const past = await list('?page=9');
    expect(past.data).toEqual([]);
    // A page past the end has no row to carry the total: it is still counted.
    expect(past.pagination).toEqual({ total: 4, page: 9, limit: 50, totalPages: 1 });
    expect((await list('?mes=3&page=2')).pagination).toMatchObject({ total: 0, page: 2 });
  });

  it('answers 400 for invalid query parameters', async () => {
    for (const q of [
      '?mes=13',
      '?mes=0',
      '?mes=x',
      '?año=99999',
      '?limit=0',
      '?limit=101',
      '?page=0',
      '?regimen_fiscal=6',
      '?limit=1&limit=2',
    ]) {
      await expectError(
        await request(t, 'GET', `/api/invoices${q}`, { headers: bearer(u.token) }),
        400,
        'Bad Request',
      );
    }
  });

  it("answers 401 without a token and shows nobody else's invoices", async () => {
    await expectError(await request(t, 'GET', '/api/invoices'), 401, 'Unauthorized');
    const stranger = await signUp(t);
    expect((await list('', stranger)).data).toEqual([]);
    await expectError(
      await request(t, 'GET', `/api/invoices?profileId=${profileA}`, { headers: bearer(stranger.token) }),
      403,
      'Forbidden',
    );
  });
});

describe('GET /api/invoices/{id} and /xml', () => {
  it('returns one invoice, and the original XML byte for byte', async () => {
    const one = await (
      await request(t, 'GET', `/api/invoices/${ids.aJan}`, { headers: bearer(u.token) })
    ).json();
    expect(one.id).toBe(ids.aJan);
    const res = await request(t, 'GET', `/api/invoices/${ids.aJan}/xml`, { headers: bearer(u.token) });
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(await res.text()).toContain(`UUID="${one.uuid}"`);
  });

  it('answers 403 for someone else’s invoice and 404 for a missing one, on both', async () => {
    const stranger = await signUp(t);
    for (const path of [`/api/invoices/${ids.aJan}`, `/api/invoices/${ids.aJan}/xml`]) {
      await expectError(await request(t, 'GET', path, { headers: bearer(stranger.token) }), 403, 'Forbidden');
    }
    await expectError(
      await request(t, 'GET', '/api/invoices/none', { headers: bearer(u.token) }),
      404,
      'Not Found',
    );
    await expectError(
      await request(t, 'GET', '/api/invoices/none/xml', { headers: bearer(u.token) }),
      404,
      'Not Found',
    );
  });

  it('serves the same through the tRPC caller', async () => {
    const page = await caller(t, u.token).invoices.list({ mes: 1, año: 2025, page: 1, limit: 50 });
    expect(page.data.map((i) => i.id)).toEqual([ids.aJan]);
    await expect(caller(t, u.token).invoices.list({ mes: 13, page: 1, limit: 50 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});
