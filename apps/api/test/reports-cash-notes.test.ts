// Issue 24, tax-rules §2: the cash basis (`flujo`) with credit notes, advances and payments in other
// currencies, through the real import and the monthly report (REST, and tRPC once), on PGlite and,
// with TEST_DATABASE_URL, PostgreSQL. Every figure is worked by hand in the test, article cited.
import { round2 } from '@folio/cfdi';
import { invoiceXml, newUuid, paymentXml } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, getJson, imported, ME, profileOfMe, SUPPLIER } from './cfdi-helpers';
import { startTestApp, type TestApp, trpcClient } from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

type InvoiceSpec = Parameters<typeof invoiceXml>[0];

/** A fresh profile of ME and what the tests do with it. */
async function books() {
  const { u, p } = await profileOfMe(t);
  const put = (xml: string) => imported(t, u, p.id, xml);
  const month = async (mes: number, año = 2025) =>
    (await getJson(t, u, `/api/reports/monthly?profileId=${p.id}&año=${año}&mes=${mes}`)).data;
  return { u, p, put, month };
}

/** A sale of ME to CLIENT: `importe` + 16 % IVA. */
const sale = (uuid: string, fecha: string, importe: number, extra: Partial<InvoiceSpec> = {}) =>
  invoiceXml({
    uuid,
    emisor: ME,
    receptor: CLIENT,
    fecha,
    conceptos: [{ descripcion: 'Mercancía', importe }],
    ...extra,
  });

/** A credit note (E) of ME to CLIENT for `importe` + 16 % IVA, related to `related` by `tipoRelacion`. */
const note = (
  fecha: string,
  importe: number,
  related: string[],
  tipoRelacion = '01',
  extra: Partial<InvoiceSpec> = {},
) =>
  invoiceXml({
    uuid: newUuid(),
    emisor: ME,
    receptor: CLIENT,
    fecha,
    tipoDeComprobante: 'E',
    relacionados: [{ tipoRelacion, uuids: related }],
    conceptos: [{ descripcion: 'Bonificación', importe }],
    ...extra,
  });

/** A complement of ME paying `impPagado` of `uuid` in pesos. */
const rep = (
  uuid: string,
  fechaPago: string,
  numParcialidad: number,
  impSaldoAnt: number,
  impPagado: number,
) =>
  paymentXml({
    uuid: newUuid(),
    emisor: ME,
    receptor: CLIENT,
    fecha: fechaPago,
    pagos: [{ fechaPago, doctos: [{ uuid, numParcialidad, impSaldoAnt, impPagado }] }],
  });

const cash = (base: number, iva: number, total: number, retIva = 0, retIsr = 0) => ({
  base: round2(base),
  iva_trasladado: round2(iva),
  retencion_iva: round2(retIva),
  retencion_isr: round2(retIsr),
  total: round2(total),
  // Every document here is at 16 % (tax-rules §4's totals by rate).
  por_tasa: {
    tasa_16: { base: round2(base), iva: round2(iva) },
    tasa_8: { base: 0, iva: 0 },
    tasa_0: { base: 0, iva: 0 },
    exento: { base: 0, iva: 0 },
    no_objeto: { base: 0, iva: 0 },
  },
});
const NONE = cash(0, 0, 0);

describe('credit notes on the cash basis (tax-rules §2, LIVA 1-B, 7, 17)', () => {
  it('a note against a PPD invoice not yet collected moves no cash; the later REP pays the net', async () => {
    const { u, p, put, month } = await books();
    // PPD of March 10: 5,000 + 800 = 5,800. Note 01 of March 12: 1,000 + 160 = 1,160.
    const inv = newUuid();
    await put(sale(inv, '2025-03-10T10:00:00', 5000, { metodoPago: 'PPD' }));
    await put(note('2025-03-12T10:00:00', 1000, [inv]));
    // April 5: the REP pays the net, 5,800 − 1,160 = 4,640.
    await put(rep(inv, '2025-04-05T12:00:00', 1, 4640, 4640));

    const march = await month(3);
    // Nothing collected in March: the note lowered the balance, not the cash (before: −1,160).
    expect(march.flujo.cobrado).toEqual(NONE);
    // Accrual: the note lowers its own month (5,000 − 1,000; 800 − 160).
    expect(march.ingresos).toMatchObject({
      subtotal: 4000,
      iva_trasladado: 640,
      total: 4640,
      notas_credito: 1160,
    });
    expect(march.pendientes.por_cobrar).toEqual({ documentos: 1, saldo: 5800 - 1160 });
    // April: 4,640 of 5,800 in proportion: base 5,000 × 4,640/5,800 = 4,000, IVA 800 × 0.8 = 640.
    expect((await month(4)).flujo.cobrado).toEqual(cash(4000, 640, 4640));
    // The same figures through tRPC.
    const viaTrpc = await trpcClient(t, u.token).reports.monthly.query({
      profileId: p.id,
      año: 2025,
      mes: 3,
    });
    expect(viaTrpc.data.flujo?.cobrado).toEqual(NONE);
  });

  it('a note against a collected (PUE) invoice lowers the cash of the note’s month, never clamped at zero (LIVA 7)', async () => {
    const { put, month } = await books();
    const inv = newUuid();
    await put(sale(inv, '2025-02-10T10:00:00', 5000));
    await put(note('2025-03-12T10:00:00', 1000, [inv]));
    expect((await month(2)).flujo.cobrado).toEqual(cash(5000, 800, 5800));
    // March has only the refund: −1,000, −160, −1,160.
    expect((await month(3)).flujo.cobrado).toEqual(cash(-1000, -160, -1160));
  });

  it('a note against a PPD invoice already fully paid is money back in its month', async () => {
    const { put, month } = await books();
    const inv = newUuid();
    await put(sale(inv, '2025-02-10T10:00:00', 5000, { metodoPago: 'PPD' }));
    await put(rep(inv, '2025-02-20T12:00:00', 1, 5800, 5800));
    await put(note('2025-03-12T10:00:00', 1000, [inv]));
    expect((await month(2)).flujo.cobrado).toEqual(cash(5000, 800, 5800));
    expect((await month(3)).flujo.cobrado).toEqual(cash(-1000, -160, -1160));
  });

  it('a note exceeding the pending balance: only the excess is a refund, in the note’s month', async () => {
    const { put, month } = await books();
    // PPD 5,800 of March 1; REP of March 15 pays 3,480 (balance 2,320); note of March 20 for
    // 3,000 + 480 = 3,480: 2,320 lower the balance, 3,480 − 2,320 = 1,160 is money back.
    const inv = newUuid();
    await put(sale(inv, '2025-03-01T10:00:00', 5000, { metodoPago: 'PPD' }));
    await put(rep(inv, '2025-03-15T12:00:00', 1, 5800, 3480));
    await put(note('2025-03-20T10:00:00', 3000, [inv]));
    const march = await month(3);
    // REP: 5,000 × 3,480/5,800 = 3,000 and 480; refund: the note's 3,000/480 × 1,160/3,480 = 1,000/160.
    expect(march.flujo.cobrado).toEqual(cash(3000 - 1000, 480 - 160, 3480 - 1160));
    expect(march.pendientes.por_cobrar).toEqual({ documentos: 0, saldo: 0 });
  });

  it('a note to several invoices is applied in the order of its CfdiRelacionado list, each up to its balance', async () => {
    const { u, put, month } = await books();
    // Two PPD of 1,160 each (1,000 + 160), unpaid; one note of 1,500 + 240 = 1,740 naming B, then A:
    // B takes 1,160 (settled), A the other 1,740 − 1,160 = 580; nothing left, so no cash.
    const [a, b] = [newUuid(), newUuid()];
    const aId = await put(sale(a, '2025-03-01T10:00:00', 1000, { metodoPago: 'PPD' }));
    const bId = await put(sale(b, '2025-03-02T10:00:00', 1000, { metodoPago: 'PPD' }));
    await put(note('2025-03-20T10:00:00', 1500, [b, a]));
    const march = await month(3);
    expect(march.flujo.cobrado).toEqual(NONE);
    expect(march.pendientes.por_cobrar).toEqual({ documentos: 1, saldo: 1160 - 580 });
    const status = async (id: string) => (await getJson(t, u, `/api/invoices/${id}`)).estadoPago;
    expect(await status(bId)).toMatchObject({ estado: 'PAGADO', notasCredito: 1160, saldoPendiente: 0 });
    expect(await status(aId)).toMatchObject({
      estado: 'PAGO_PARCIAL',
      notasCredito: 580,
      saldoPendiente: 580,
    });
  });

  it('a note to several invoices: what exceeds their balances is a refund in the note’s month', async () => {
    const { put, month } = await books();
    // Two PPD of 1,160 unpaid; a note of 2,500 + 400 = 2,900 naming both: 2,320 lower them, 580 back
    // (the note's 2,500/400 × 580/2,900 = 500/80).
    const [a, b] = [newUuid(), newUuid()];
    await put(sale(a, '2025-03-01T10:00:00', 1000, { metodoPago: 'PPD' }));
    await put(sale(b, '2025-03-02T10:00:00', 1000, { metodoPago: 'PPD' }));
    await put(note('2025-03-20T10:00:00', 2500, [a, b]));
    const march = await month(3);
    expect(march.flujo.cobrado).toEqual(cash(-500, -80, -580));
    expect(march.pendientes.por_cobrar).toEqual({ documentos: 0, saldo: 0 });
  });

  it('an earlier note shared by several invoices lowers only its part of each: a later note finds the rest', async () => {
    const { put, month } = await books();
    // A and B, PPD of 1,160 each, unpaid. March 5: a note of 1,160 naming A, then B → all of it to A.
    // March 10: a note of 1,160 naming B → B still owes 1,160, so no cash either.
    const [a, b] = [newUuid(), newUuid()];
    await put(sale(a, '2025-03-01T10:00:00', 1000, { metodoPago: 'PPD' }));
    await put(sale(b, '2025-03-02T10:00:00', 1000, { metodoPago: 'PPD' }));
    await put(note('2025-03-05T10:00:00', 1000, [a, b]));
    await put(note('2025-03-10T10:00:00', 1000, [b]));
    const march = await month(3);
    expect(march.flujo.cobrado).toEqual(NONE);
    expect(march.pendientes.por_cobrar).toEqual({ documentos: 0, saldo: 0 });
  });

  it('with IVA withheld on the original (LIVA 1-A), the refund lowers the month it was collected, with the advertencia "complementaria"', async () => {
    const { put, month } = await books();
    // PUE of February 10 to a persona moral that withholds two thirds of the IVA:
    // 10,000 + 1,600 − 1,066.67 = 10,533.33. Note of March 5 for 1,000 + 160 − 106.67 = 1,053.33.
    const withholding = { retenciones: { iva: 0.106667 } };
    const inv = newUuid();
    await put(sale(inv, '2025-02-10T10:00:00', 10000, withholding));
    await put(note('2025-03-05T10:00:00', 1000, [inv], '01', withholding));
    const february = await month(2);
    expect(february.flujo.cobrado).toEqual(
      cash(10000 - 1000, 1600 - 160, 10533.33 - 1053.33, 1066.67 - 106.67),
    );
    expect(february.advertencias.some((a: string) => a.includes('complementaria'))).toBe(true);
    const march = await month(3);
    expect(march.flujo.cobrado).toEqual(NONE);
    // Accrual: the note lowers March by its subtotal, IVA and its own withholding (total 1,053.33 =
    // 1,000 + 160 − 106.67).
    expect(march.ingresos).toMatchObject({
      documentos: 0,
      subtotal: -1000,
      iva_trasladado: -160,
      retencion_iva: -106.67,
      total: -1053.33,
      notas_credito: 1053.33,
    });
  });

  it('the same rules on the expense side: a supplier’s note against an unpaid PPD moves no cash', async () => {
    const { put, month } = await books();
    const inv = newUuid();
    await put(
      invoiceXml({
        uuid: inv,
        emisor: SUPPLIER,
        receptor: ME,
        fecha: '2025-03-10T10:00:00',
        metodoPago: 'PPD',
        conceptos: [{ descripcion: 'Equipo', importe: 4000 }],
      }),
    );
    await put(
      invoiceXml({
        uuid: newUuid(),
        emisor: SUPPLIER,
        receptor: ME,
        fecha: '2025-03-15T10:00:00',
        tipoDeComprobante: 'E',
        relacionados: [{ tipoRelacion: '03', uuids: [inv] }],
        conceptos: [{ descripcion: 'Devolución', importe: 1000 }],
      }),
    );
    // 4,640 − 1,160 = 3,480 paid in April: base 4,000 × 3/4 = 3,000, IVA 480.
    await put(
      paymentXml({
        uuid: newUuid(),
        emisor: SUPPLIER,
        receptor: ME,
        fecha: '2025-04-02T10:00:00',
        pagos: [
          {
            fechaPago: '2025-04-02T10:00:00',
            doctos: [{ uuid: inv, numParcialidad: 1, impSaldoAnt: 3480, impPagado: 3480 }],
          },
        ],
      }),
    );
    expect((await month(3)).flujo.pagado).toEqual(NONE);
    expect((await month(4)).flujo.pagado).toEqual(cash(3000, 480, 3480));
  });
});

describe('advances (tax-rules §2, LIVA 1-B, 17)', () => {
  const advance = (uuid: string) =>
    sale(uuid, '2025-02-05T10:00:00', 1000, {
      conceptos: [{ descripcion: 'Anticipo del bien o servicio', importe: 1000, claveProdServ: '84111506' }],
    });
  const application = (fecha: string, finalUuid: string) =>
    note(fecha, 1000, [finalUuid], '07', {
      formaPago: '30',
      conceptos: [{ descripcion: 'Aplicación de anticipo', importe: 1000, claveProdServ: '84111506' }],
    });

  it('PPD: the advance is cash when collected; its E 07 moves no cash and lowers the balance the REP pays', async () => {
    const { put, month } = await books();
    const final = newUuid();
    await put(advance(newUuid()));
    await put(sale(final, '2025-03-10T10:00:00', 5000, { metodoPago: 'PPD' }));
    await put(application('2025-03-10T10:05:00', final));
    await put(rep(final, '2025-04-08T12:00:00', 1, 4640, 4640));
    // February: the advance, 1,000 + 160.
    expect((await month(2)).flujo.cobrado).toEqual(cash(1000, 160, 1160));
    const march = await month(3);
    expect(march.flujo.cobrado).toEqual(NONE);
    expect(march.pendientes.por_cobrar).toEqual({ documentos: 1, saldo: 5800 - 1160 });
    // April: 4,640 of 5,800 → 4,000 + 640. Over the three months 1,160 + 4,640 = 5,800: the sale once.
    expect((await month(4)).flujo.cobrado).toEqual(cash(4000, 640, 4640));
  });

  it('PUE: the final invoice’s cash on its Fecha is its total less its 07 notes', async () => {
    const { put, month } = await books();
    const final = newUuid();
    await put(advance(newUuid()));
    await put(sale(final, '2025-03-10T10:00:00', 5000));
    await put(application('2025-03-10T10:05:00', final));
    // 5,800 − 1,160 = 4,640: base 5,000 − 1,000, IVA 800 − 160.
    expect((await month(3)).flujo.cobrado).toEqual(cash(4000, 640, 4640));
  });

  it('an I related by 07 (the final invoice already net of the advance) counts normally', async () => {
    const { put, month } = await books();
    const adv = newUuid();
    await put(advance(adv));
    await put(
      sale(newUuid(), '2025-03-10T10:00:00', 4000, { relacionados: [{ tipoRelacion: '07', uuids: [adv] }] }),
    );
    expect((await month(3)).flujo.cobrado).toEqual(cash(4000, 640, 4640));
  });
});

describe('payments in another currency (tax-rules §2, Pagos 2.0)', () => {
  it('MXN paid = ImpPagado ÷ EquivalenciaDR × TipoCambioP, never ImpPagado × TipoCambioP', async () => {
    const { put, month } = await books();
    // A peso invoice paid in dollars: ImpPagado is in pesos (5,800 ÷ 20 × 20 = 5,800, not 5,800 × 20).
    const mxn = newUuid();
    await put(sale(mxn, '2025-03-01T10:00:00', 5000, { metodoPago: 'PPD' }));
    // A euro invoice (1,000 + 160 EUR at 21.00) paid in dollars at 18.00 with 0.9 EUR per USD:
    // 1,160 ÷ 0.9 × 18 = 23,200 pesos (base 20,000, IVA 3,200), not at the invoice's 21.00.
    const eur = newUuid();
    await put(sale(eur, '2025-03-02T10:00:00', 1000, { metodoPago: 'PPD', moneda: 'EUR', tipoCambio: 21 }));
    await put(
      paymentXml({
        uuid: newUuid(),
        emisor: ME,
        receptor: CLIENT,
        fecha: '2025-03-20T10:00:00',
        pagos: [
          {
            fechaPago: '2025-03-20T10:00:00',
            monedaP: 'USD',
            tipoCambioP: 20,
            doctos: [
              {
                uuid: mxn,
                monedaDR: 'MXN',
                equivalenciaDR: 20,
                numParcialidad: 1,
                impSaldoAnt: 5800,
                impPagado: 5800,
              },
            ],
          },
          {
            fechaPago: '2025-03-21T10:00:00',
            monedaP: 'USD',
            tipoCambioP: 18,
            doctos: [
              {
                uuid: eur,
                monedaDR: 'EUR',
                equivalenciaDR: 0.9,
                numParcialidad: 1,
                impSaldoAnt: 1160,
                impPagado: 1160,
              },
            ],
          },
        ],
      }),
    );
    expect((await month(3)).flujo.cobrado).toEqual(cash(5000 + 20000, 800 + 3200, 5800 + 23200));
  });
});
