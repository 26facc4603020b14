// Issue 24, tax-rules §3: an invoice's balance follows what was paid (ImpPagado) and credited, each
// at its date, never a complement's stated ImpSaldoInsoluto; `pendientes` of a month is the balance
// as of its last day from that dated history; a traslado has no payment status, a nómina is paid on
// its FechaPago. Through the real import (REST), on PGlite and, with TEST_DATABASE_URL, PostgreSQL.
import { invoiceXml, newUuid, paymentXml, payrollXml } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, getJson, imported, ME, profileOfMe, SUPPLIER } from './cfdi-helpers';
import { startTestApp, type TestApp } from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

async function books() {
  const { u, p } = await profileOfMe(t);
  const put = (xml: string) => imported(t, u, p.id, xml);
  const month = async (mes: number) =>
    (await getJson(t, u, `/api/reports/monthly?profileId=${p.id}&año=2025&mes=${mes}`)).data;
  const get = (path: string) => getJson(t, u, path);
  return { put, month, get };
}

/** A PPD sale of ME to CLIENT: `importe` + 16 % IVA. */
const ppd = (uuid: string, fecha: string, importe: number) =>
  invoiceXml({
    uuid,
    emisor: ME,
    receptor: CLIENT,
    fecha,
    metodoPago: 'PPD',
    conceptos: [{ descripcion: 'Mercancía', importe }],
  });

const rep = (
  repUuid: string,
  uuid: string,
  fechaPago: string,
  d: { numParcialidad: number; impSaldoAnt: number; impPagado: number; impSaldoInsoluto?: number },
) =>
  paymentXml({
    uuid: repUuid,
    emisor: ME,
    receptor: CLIENT,
    fecha: fechaPago,
    pagos: [{ fechaPago, doctos: [{ uuid, ...d }] }],
  });

describe('payment status and pendientes (tax-rules §3)', () => {
  it('a REP whose ImpSaldoInsoluto contradicts its payment: the balance follows ImpPagado, the REP is defective', async () => {
    const { put, month, get } = await books();
    const inv = newUuid();
    const id = await put(ppd(inv, '2025-03-01T10:00:00', 5000));
    // Pays 2,000 of 5,800 and states 0 left (5,800 − 2,000 = 3,800 in truth).
    const repUuid = newUuid();
    await put(
      rep(repUuid, inv, '2025-03-10T12:00:00', {
        numParcialidad: 1,
        impSaldoAnt: 5800,
        impPagado: 2000,
        impSaldoInsoluto: 0,
      }),
    );
    const invoice = await get(`/api/invoices/${id}`);
    expect(invoice.estadoPago).toMatchObject({
      estado: 'PAGO_PARCIAL',
      totalPagado: 2000,
      saldoPendiente: 5800 - 2000,
      // 2,000 / 5,800 = 34.48 %.
      porcentajePagado: 34.48,
      completamentePagado: false,
      ultimoSaldoInsoluto: 0,
    });
    expect(invoice.validacion.advertencias).toContain(
      `complemento ${repUuid} (parcialidad 1) defectuoso: ImpSaldoInsoluto 0.00 ≠ ImpSaldoAnt − ImpPagado (3800.00)`,
    );
    const march = await month(3);
    expect(march.pendientes.por_cobrar).toEqual({ documentos: 1, saldo: 3800 });
    // The report counts the 2,000 the REP paid and says the REP is defective.
    expect(march.flujo.cobrado.total).toBe(2000);
    expect(march.advertencias).toContain(
      `factura ${inv}: complemento ${repUuid} (parcialidad 1) defectuoso: ImpSaldoInsoluto 0.00 ≠ ImpSaldoAnt − ImpPagado (3800.00)`,
    );
  });

  it('pendientes of three consecutive months are the balances at each month’s end, unchanged by a later payment', async () => {
    const { put, month } = await books();
    // PPD of January 10: 10,000 + 1,600 = 11,600.
    // February 15: REP pays 3,000 → 8,600. March 5: note 01 of 1,000 + 160 = 1,160 → 7,440.
    // March 15: REP pays 4,000 → 3,440. April 10 (imported last): REP pays the 3,440.
    const inv = newUuid();
    await put(ppd(inv, '2025-01-10T10:00:00', 10000));
    await put(
      rep(newUuid(), inv, '2025-02-15T12:00:00', { numParcialidad: 1, impSaldoAnt: 11600, impPagado: 3000 }),
    );
    await put(
      invoiceXml({
        uuid: newUuid(),
        emisor: ME,
        receptor: CLIENT,
        fecha: '2025-03-05T10:00:00',
        tipoDeComprobante: 'E',
        relacionados: [{ tipoRelacion: '01', uuids: [inv] }],
        conceptos: [{ descripcion: 'Bonificación', importe: 1000 }],
      }),
    );
    await put(
      rep(newUuid(), inv, '2025-03-15T12:00:00', { numParcialidad: 2, impSaldoAnt: 7440, impPagado: 4000 }),
    );
    const pendientes = async () =>
      Promise.all([1, 2, 3].map(async (mes) => (await month(mes)).pendientes.por_cobrar));
    const expected = [
      { documentos: 1, saldo: 11600 },
      { documentos: 1, saldo: 11600 - 3000 },
      { documentos: 1, saldo: 11600 - 3000 - 1160 - 4000 },
    ];
    expect(await pendientes()).toEqual(expected);
    await put(
      rep(newUuid(), inv, '2025-04-10T12:00:00', { numParcialidad: 3, impSaldoAnt: 3440, impPagado: 3440 }),
    );
    expect(await pendientes()).toEqual(expected);
    expect((await month(4)).pendientes.por_cobrar).toEqual({ documentos: 0, saldo: 0 });
  });

  it('a PPD expense settled by a credit note after its last payment is paid on the note’s date', async () => {
    const { put, get } = await books();
    // The supplier's 5,800; 4,640 paid on March 10; its note of 1,000 + 160 = 1,160 on March 25
    // settles the rest: paid on the 25th.
    const inv = newUuid();
    const id = await put(
      invoiceXml({
        uuid: inv,
        emisor: SUPPLIER,
        receptor: ME,
        fecha: '2025-03-01T10:00:00',
        metodoPago: 'PPD',
        conceptos: [{ descripcion: 'Equipo', importe: 5000 }],
      }),
    );
    await put(
      paymentXml({
        uuid: newUuid(),
        emisor: SUPPLIER,
        receptor: ME,
        fecha: '2025-03-10T12:00:00',
        pagos: [
          {
            fechaPago: '2025-03-10T12:00:00',
            doctos: [{ uuid: inv, numParcialidad: 1, impSaldoAnt: 5800, impPagado: 4640 }],
          },
        ],
      }),
    );
    await put(
      invoiceXml({
        uuid: newUuid(),
        emisor: SUPPLIER,
        receptor: ME,
        fecha: '2025-03-25T10:00:00',
        tipoDeComprobante: 'E',
        relacionados: [{ tipoRelacion: '01', uuids: [inv] }],
        conceptos: [{ descripcion: 'Bonificación', importe: 1000 }],
      }),
    );
    const { data } = await get('/api/expenses?tipo_comprobante=I');
    expect(data.find((e: { id: string }) => e.id === id)).toMatchObject({
      is_paid: true,
      payment_date: '2025-03-25T10:00:00',
    });
  });

  it('a traslado (T) has no payment status and no self-invoice warning', async () => {
    const { put, get } = await books();
    const id = await put(
      invoiceXml({
        uuid: newUuid(),
        emisor: ME,
        receptor: ME,
        fecha: '2025-03-03T10:00:00',
        tipoDeComprobante: 'T',
        conceptos: [{ descripcion: 'Traslado de mercancía a sucursal', importe: 0, objetoImp: '01' }],
      }),
    );
    const doc = await get(`/api/invoices/${id}`);
    expect(doc.tipo_comprobante ?? doc.tipoComprobante).toBe('T');
    expect(doc.estadoPago).toBeNull();
    expect(doc.validacion.advertencias.some((a: string) => a.includes('autofactura'))).toBe(false);
  });

  it('a nómina is paid on its complement’s FechaPago', async () => {
    const { put, get } = await books();
    // The employer's receipt, dated the 14th, paid on the 15th.
    const id = await put(
      payrollXml({
        uuid: newUuid(),
        emisor: ME,
        receptor: { ...CLIENT, regimen: '605' },
        fecha: '2025-03-14T18:00:00',
        fechaPago: '2025-03-15',
        gravado: 8000,
        isr: 600,
      }),
    );
    const { data } = await get('/api/expenses?tipo_comprobante=N');
    expect(data.find((e: { id: string }) => e.id === id)).toMatchObject({
      is_paid: true,
      payment_date: '2025-03-15',
    });
  });
});
