import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createProfile,
  expectError,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  uploadXml,
} from './harness';
import { haveSamples, sample } from './samples';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/** A user on PRO with one profile for `rfc`, importing `file` as a single XML upload. */
async function importAs(rfc: string, tipo: 'FISICA' | 'MORAL', regimes: string[], file: string) {
  const u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  const p = await createProfile(t, u, {
    nombre: 'Perfil',
    rfc,
    tipo_persona: tipo,
    regimenes_fiscales: regimes,
  });
  const res = await uploadXml(t, u, p.id, sample(file));
  return { u, p, res };
}
const invoice = async (u: { token: string }, id: string) =>
  (await request(t, 'GET', `/api/invoices/${id}`, { headers: bearer(u.token) })).json();

describe.skipIf(!haveSamples)('what import does with each real sample', () => {
  it('cfdi40-ingreso-pue-real: income PUE, paid at issue, valid, mes/año from the literal date', async () => {
    const { u, res } = await importAs('ISD950921HE5', 'MORAL', ['601'], 'cfdi40-ingreso-pue-real.xml');
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toMatchObject({ imported: 1, duplicates: 0, rejected: 0 });
    expect(data.files[0]).toMatchObject({
      status: 'imported',
      kind: 'invoice',
      tipo: 'PUE',
      uuid: 'C2832671-DA6D-11EF-A83D-00155D012007',
    });
    expect(await invoice(u, data.files[0].id)).toMatchObject({
      fecha: '2025-01-24T10:10:41',
      mes: 1,
      año: 2025,
      total: 1000,
      subtotal: 862.07,
      iva: 16,
      iva_amount: 137.93,
      rfc_emisor: 'ISD950921HE5',
      regimen_fiscal_receptor: '612',
      complemento_pago: null,
      validacion: {
        rfcVerificado: true,
        regimenFiscalVerificado: true,
        uuidDuplicado: false,
        advertencias: [],
        errores: [],
        valido: true,
      },
      estadoPago: {
        estado: 'PAGADO',
        totalFactura: 1000,
        totalPagado: 1000,
        saldoPendiente: 0,
        porcentajePagado: 100,
        completamentePagado: true,
        tieneComplementos: false,
        tienePagosManuales: false,
      },
    });
  });

  it('cfdi40-ingreso-pue-real from the receiver side: an expense, paid', async () => {
    const { u, p, res } = await importAs('COSC8001137NA', 'FISICA', ['612'], 'cfdi40-ingreso-pue-real.xml');
    expect((await res.json()).data.files[0]).toMatchObject({ status: 'imported', kind: 'expense' });
    const list = await (
      await request(t, 'GET', `/api/expenses?profileId=${p.id}`, { headers: bearer(u.token) })
    ).json();
    expect(list.data[0]).toMatchObject({
      tipo_origen: 'XML',
      is_paid: true,
      payment_date: '2025-01-24T10:10:41',
      total: 1000,
    });
  });

  it('cfdi40-ingreso-ppd-rfc-ampersand: income PPD, unpaid, with regime warnings; its complement then settles it', async () => {
    const { u, p, res } = await importAs(
      'H&E951128469',
      'MORAL',
      ['601'],
      'cfdi40-ingreso-ppd-rfc-ampersand.xml',
    );
    const { id } = (await res.json()).data.files[0];
    const before = await invoice(u, id);
    expect(before).toMatchObject({
      tipo: 'PPD',
      rfc_emisor: 'H&E951128469',
      total: 17852.75,
      estadoPago: { estado: 'NO_PAGADO', saldoPendiente: 17852.75 },
    });
    expect(before.validacion).toMatchObject({ regimenFiscalVerificado: false, valido: true });
    expect(before.validacion.advertencias).toHaveLength(2);
    const rep = await uploadXml(t, u, p.id, sample('cfdi40-pago20-liquida-ppd-rfc-ampersand.xml'));
    expect((await rep.json()).data.files[0]).toMatchObject({ status: 'imported', tipo: 'COMPLEMENTO_PAGO' });
    const after = await invoice(u, id);
    expect(after.estadoPago).toEqual({
      estado: 'PAGADO',
      totalFactura: 17852.75,
      totalPagado: 17852.75,
      saldoPendiente: 0,
      porcentajePagado: 100,
      completamentePagado: true,
      ultimoSaldoInsoluto: 0,
      tieneComplementos: true,
      tienePagosManuales: false,
    });
    expect(after.pagos).toEqual([
      { fechaPago: '2020-01-02T22:40:38', formaPago: '03', monedaPago: 'MXN', monto: 17852.75 },
    ]);
  });

  it('cfdi40-pago20-liquida-ppd-rfc-ampersand alone: a COMPLEMENTO_PAGO listed with complemento_pago and no estadoPago', async () => {
    const { u, res } = await importAs(
      'H&E951128469',
      'MORAL',
      ['601'],
      'cfdi40-pago20-liquida-ppd-rfc-ampersand.xml',
    );
    const rep = await invoice(u, (await res.json()).data.files[0].id);
    expect(rep).not.toHaveProperty('estadoPago');
    expect(rep.complemento_pago).toEqual({
      fechaPago: '2020-01-02T22:40:38',
      formaPago: '03',
      monedaPago: 'MXN',
      tipoCambio: 1,
      monto: 17852.75,
      facturasRelacionadas: [
        {
          uuid: '6D7434A6-E3F2-47AD-9E4C-08849946AFA0',
          monedaDR: 'MXN',
          tipoCambioDR: 1,
          metodoPagoDR: 'PPD',
          numParcialidad: 1,
          impSaldoAnt: 17852.75,
          impPagado: 17852.75,
          impSaldoInsoluto: 0,
        },
      ],
    });
  });

  it('cfdi40-ingreso-ppd-retenciones-isr-iva: withholdings stored; flagged as a duplicate UUID held by another profile', async () => {
    const { u, res } = await importAs(
      'XIQB891116QE4',
      'FISICA',
      ['612'],
      'cfdi40-ingreso-ppd-retenciones-isr-iva.xml',
    );
    const first = await invoice(u, (await res.json()).data.files[0].id);
    expect(first).toMatchObject({
      total: 14672.08,
      retencion_isr_amount: 1539.03,
      retencion_iva_amount: 1641.64,
      iva_amount: 2462.45,
    });
    expect(first.validacion.uuidDuplicado).toBe(false);
    expect(first.validacion.advertencias.join(' ')).toMatch(/601.*persona física/);
    // The same UUID as the H&E invoice: the same user holding both gets it flagged.
    const other = await createProfile(t, u, { nombre: 'HE', rfc: 'H&E951128469', tipo_persona: 'MORAL' });
    const dup = await uploadXml(t, u, other.id, sample('cfdi40-ingreso-ppd-rfc-ampersand.xml'));
    expect((await invoice(u, (await dup.json()).data.files[0].id)).validacion).toMatchObject({
      uuidDuplicado: true,
      valido: true,
    });
  });

  it('cfdi33-ingreso-pue-real: CFDI 3.3 income PUE (no receiver regime), paid', async () => {
    const { u, res } = await importAs('POT9207213D6', 'MORAL', ['601'], 'cfdi33-ingreso-pue-real.xml');
    const inv = await invoice(u, (await res.json()).data.files[0].id);
    expect(inv).toMatchObject({
      uuid: 'CEE4BE01-ADFA-4DEB-8421-ADD60F0BEDAC',
      total: 2010.01,
      mes: 1,
      año: 2018,
      estadoPago: { estado: 'PAGADO' },
    });
    expect(inv).not.toHaveProperty('regimen_fiscal_receptor');
  });

  it('cfdi40-nomina: the employer files it as an expense', async () => {
    const { res } = await importAs('AAA010101AAA', 'MORAL', ['601'], 'cfdi40-nomina.xml');
    expect((await res.json()).data.files[0]).toMatchObject({
      status: 'imported',
      kind: 'expense',
      tipo: 'PUE',
    });
  });

  it('refuses the unstamped samples with "sin timbre" and stores nothing', async () => {
    for (const file of [
      'cfdi33-pagos10-con-bom.xml',
      'cfdi40-ingreso-usd-tipocambio.xml',
      'cfdi40-pago20-mxn-docs-usd.xml',
      'cfdi40-pago20-parcial-y-liquidacion.xml',
      'cfdi40-pago20-usd-docs-mxn-equivalenciadr.xml',
    ]) {
      const { u, res } = await importAs('EKU9003173C9', 'MORAL', ['601'], file);
      expect(await expectError(res, 400, 'Bad Request')).toMatch(/sin timbre/);
      expect(
        (await (await request(t, 'GET', '/api/invoices', { headers: bearer(u.token) })).json()).data,
      ).toEqual([]);
    }
  });

  it('refuses cfdi32-legacy-real as an unsupported version', async () => {
    const { res } = await importAs('EKU9003173C9', 'MORAL', ['601'], 'cfdi32-legacy-real.xml');
    expect(await expectError(res, 400, 'Bad Request')).toBe('versión no soportada: 3.2');
  });

  it('refuses a sample whose RFCs are not the profile’s, naming both', async () => {
    const { res } = await importAs('EKU9003173C9', 'MORAL', ['601'], 'cfdi40-ingreso-pue-real.xml');
    expect(await expectError(res, 400, 'Bad Request')).toMatch(/ni receptor/);
  });
});

// Reported as skipped, with the reason, rather than as a test that passed without checking anything.
if (!haveSamples) it.skip('CFDI sample tests skipped: ../shared/data/cfdi-samples is not here', () => {});
