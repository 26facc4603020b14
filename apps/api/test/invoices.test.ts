import { A, seedInvoices } from '@folio/api/testing/invoices';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectError, request, signUp, startTestApp, type TestApp, type TestUser } from './harness';

// The HTTP shape of /api/invoices. What the list shows, filters, finds and pages is tested next to
// the service, in packages/api/test/invoices.test.ts, on the same invoices (invoice-fixture.ts).

let t: TestApp;
let u: TestUser;
let ids: Awaited<ReturnType<typeof seedInvoices>>['ids'];
let profileA: string;

beforeAll(async () => {
  t = await startTestApp();
  ({ u, ids, profileA } = await seedInvoices(t));
});
afterAll(() => t.close());

const list = async () => {
  const res = await request(t, 'GET', '/api/invoices', { headers: bearer(u.token) });
  expect(res.status).toBe(200);
  return res.json() as Promise<{ data: Record<string, any>[]; pagination: Record<string, number> }>;
};

describe('GET /api/invoices', () => {
  it('returns each invoice with exactly the spec fields (plus the additive kind, currency and SAT status ones), validacion and estadoPago included', async () => {
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
        'estatus_sat',
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

  it("answers 401 without a token and 403 for another user's profile", async () => {
    await expectError(await request(t, 'GET', '/api/invoices'), 401, 'Unauthorized');
    const stranger = await signUp(t);
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
});
