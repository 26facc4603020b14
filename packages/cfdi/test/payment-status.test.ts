// estadoPago per docs/cfdi.md#payment-status: PUE/nómina paid at issue, PPD from REP applications and manual
// payments, with warnings for gaps, duplicates, overpayment, currency and balance anomalies.
import { describe, expect, it } from 'vitest';
import {
  applicationsFrom,
  type Cfdi,
  type CreditNote,
  computeEstadoPago,
  type InvoiceAmounts,
  type ManualPayment,
  type PaymentApplication,
  parseCfdi,
  payeeApplications,
  paymentDate,
  totalMxn,
} from '../src';
import { rep20 } from './build-cfdi';

const PPD: InvoiceAmounts = { total: 1000, moneda: 'MXN', metodoPago: 'PPD', tipoDeComprobante: 'I' };
const PUE: InvoiceAmounts = { ...PPD, metodoPago: 'PUE' };

let rep = 0;
/** Installment n of the 1000 MXN invoice: saldoAnt → paid → insoluto. */
function app(
  n: number,
  saldoAnt: number,
  pagado: number,
  extra: Partial<PaymentApplication> = {},
): PaymentApplication {
  return {
    repUuid: `REP-${++rep}`,
    fechaPago: `2024-0${n}-15T10:00:00`,
    formaPago: '03',
    monedaP: 'MXN',
    monto: pagado,
    monedaDR: 'MXN',
    numParcialidad: n,
    impSaldoAnt: saldoAnt,
    impPagado: pagado,
    impSaldoInsoluto: Math.round((saldoAnt - pagado) * 100) / 100,
    ...extra,
  };
}
const manual = (monto: number, extra: Partial<ManualPayment> = {}): ManualPayment => ({
  fechaPago: '2024-07-01',
  formaPago: '01',
  monedaPago: 'MXN',
  monto,
  ...extra,
});

describe('paid at issue', () => {
  it('PUE → PAGADO, 100 %, no REP expected', () => {
    expect(computeEstadoPago(PUE, [], [])).toEqual({
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
      advertencias: [],
    });
  });

  it('nómina → PAGADO', () => {
    const nomina = { total: 4445, moneda: 'MXN', tipoDeComprobante: 'N' };
    expect(computeEstadoPago(nomina, [], []).estadoPago).toMatchObject({
      estado: 'PAGADO',
      totalPagado: 4445,
    });
  });

  it('a REP referencing a PUE invoice is an anomaly: warning, still PAGADO', () => {
    const r = computeEstadoPago(PUE, [app(1, 1000, 1000)], []);
    expect(r.estadoPago).toMatchObject({ estado: 'PAGADO', tieneComplementos: true, ultimoSaldoInsoluto: 0 });
    expect(r.advertencias).toEqual(['complemento de pago que referencia una factura PUE']);
  });
});

describe('PPD from payment complements', () => {
  it('no payment yet → NO_PAGADO, full balance pending', () => {
    expect(computeEstadoPago(PPD, [], []).estadoPago).toEqual({
      estado: 'NO_PAGADO',
      totalFactura: 1000,
      totalPagado: 0,
      saldoPendiente: 1000,
      porcentajePagado: 0,
      completamentePagado: false,
      tieneComplementos: false,
      tienePagosManuales: false,
    });
  });

  it('two partial REPs → PAGO_PARCIAL with the last ImpSaldoInsoluto; a third settles → PAGADO', () => {
    const first = app(1, 1000, 300);
    const second = app(2, 700, 200);
    const partial = computeEstadoPago(PPD, [first, second], []);
    expect(partial).toEqual({
      estadoPago: {
        estado: 'PAGO_PARCIAL',
        totalFactura: 1000,
        totalPagado: 500,
        saldoPendiente: 500,
        porcentajePagado: 50,
        completamentePagado: false,
        ultimoSaldoInsoluto: 500,
        tieneComplementos: true,
        tienePagosManuales: false,
      },
      advertencias: [],
    });
    const third = app(3, 500, 500);
    const settled = computeEstadoPago(PPD, [third, first, second], []);
    expect(settled.estadoPago).toMatchObject({
      estado: 'PAGADO',
      totalPagado: 1000,
      saldoPendiente: 0,
      porcentajePagado: 100,
      completamentePagado: true,
      ultimoSaldoInsoluto: 0,
    });
    expect(settled.advertencias).toEqual([]);
    expect(paymentDate(settled.estadoPago, [third, first, second], [])).toBe('2024-03-15T10:00:00');
    expect(paymentDate(partial.estadoPago, [first, second], [])).toBeUndefined();
  });

  it('a REP imported before its invoice is just data: its applications apply once the invoice exists', () => {
    const doc =
      'IdDocumento="cccccccc-0000-4000-8000-000000000001" MonedaDR="MXN" NumParcialidad="1" ImpSaldoAnt="1000" ImpPagado="400" ImpSaldoInsoluto="600"';
    const r = parseCfdi(rep20([doc]));
    if (!r.ok) throw new Error(r.reason);
    const stored = applicationsFrom(r.cfdi); // kept, keyed by relatedUuid, no invoice yet
    const later = computeEstadoPago(
      PPD,
      stored.filter((a) => a.relatedUuid === 'CCCCCCCC-0000-4000-8000-000000000001'),
      [],
    );
    expect(later.estadoPago).toMatchObject({ estado: 'PAGO_PARCIAL', totalPagado: 400, saldoPendiente: 600 });
  });

  it('a REP in another currency than the invoice is not added, with a warning', () => {
    const usd = app(1, 1000, 1000, { repUuid: 'REP-USD', monedaDR: 'USD' });
    const r = computeEstadoPago(PPD, [usd], []);
    expect(r.estadoPago).toMatchObject({
      estado: 'NO_PAGADO',
      totalPagado: 0,
      saldoPendiente: 1000,
      tieneComplementos: true,
    });
    expect(r.estadoPago.ultimoSaldoInsoluto).toBeUndefined();
    expect(r.advertencias).toEqual(['complemento REP-USD en USD para una factura en MXN: no se suma']);
  });

  it('overpayment → warning; balance 0 and percentage capped at 100', () => {
    const second = app(2, 200, 300, { impSaldoInsoluto: 0 });
    const r = computeEstadoPago(PPD, [app(1, 1000, 800), second], []);
    expect(r.estadoPago).toMatchObject({
      estado: 'PAGADO',
      totalPagado: 1100,
      saldoPendiente: 0,
      porcentajePagado: 100,
    });
    expect(r.advertencias).toEqual([
      // 200 − 300 = −100, not the 0 it states.
      `complemento ${second.repUuid} (parcialidad 2) defectuoso: ImpSaldoInsoluto 0.00 ≠ ImpSaldoAnt − ImpPagado (-100.00)`,
      'sobrepago: pagado 1100.00 > total 1000.00',
    ]);
  });

  it('a gap in NumParcialidad (missing REP) → warning; the balance is what was paid, not the REP’s insoluto', () => {
    const third = app(3, 500, 100);
    const r = computeEstadoPago(PPD, [app(1, 1000, 300), third], []);
    // 1000 − 300 − 100 = 600 (the REP says 400, counting a payment Folio never saw).
    expect(r.estadoPago).toMatchObject({ saldoPendiente: 600, ultimoSaldoInsoluto: 400 });
    expect(r.advertencias).toEqual([
      'faltan parcialidades: 2',
      `complemento ${third.repUuid} (parcialidad 3) defectuoso: ImpSaldoAnt 500.00 ≠ saldo a su FechaPago según pagos y notas (700.00)`,
    ]);
  });

  it('the same REP imported twice counts once', () => {
    const once = app(1, 1000, 300);
    const r = computeEstadoPago(PPD, [once, { ...once }], []);
    expect(r.estadoPago).toMatchObject({ totalPagado: 300, saldoPendiente: 700 });
    expect(r.advertencias).toEqual([
      `complemento ${once.repUuid} repetido (parcialidad 1): se cuenta una vez`,
    ]);
  });

  it('the same installment number in two REPs → warning; the later FechaPago is the last installment', () => {
    const a = app(1, 1000, 300, { repUuid: 'REP-A', fechaPago: '2024-02-01T00:00:00' });
    const b = app(1, 1000, 200, { repUuid: 'REP-B', fechaPago: '2024-01-01T00:00:00' });
    const r = computeEstadoPago(PPD, [a, b], []);
    expect(r.estadoPago.ultimoSaldoInsoluto).toBe(700);
    expect(r.advertencias).toContain('parcialidad 1 en varios complementos: REP-A, REP-B');
  });

  it('ImpSaldoAnt of installment 1 ≠ invoice Total → defective; the balance follows what was paid', () => {
    const first = app(1, 900, 900);
    const r = computeEstadoPago(PPD, [first], []);
    // 1000 − 900 = 100 still owed, 90 %.
    expect(r.estadoPago).toMatchObject({
      estado: 'PAGO_PARCIAL',
      totalPagado: 900,
      saldoPendiente: 100,
      porcentajePagado: 90,
    });
    expect(r.advertencias).toEqual([
      `complemento ${first.repUuid} (parcialidad 1) defectuoso: ImpSaldoAnt 900.00 ≠ saldo a su FechaPago según pagos y notas (1000.00)`,
    ]);
  });

  it('amounts within 0.01 match', () => {
    const r = computeEstadoPago(PPD, [app(1, 1000.01, 1000.01, { impSaldoInsoluto: 0 })], []);
    expect(r.estadoPago.estado).toBe('PAGADO');
    expect(r.advertencias).toEqual([]);
  });
});

describe('manual payments', () => {
  it('a partial manual payment → PAGO_PARCIAL, tienePagosManuales', () => {
    const r = computeEstadoPago(PPD, [], [manual(250)]);
    expect(r.estadoPago).toEqual({
      estado: 'PAGO_PARCIAL',
      totalFactura: 1000,
      totalPagado: 250,
      saldoPendiente: 750,
      porcentajePagado: 25,
      completamentePagado: false,
      tieneComplementos: false,
      tienePagosManuales: true,
    });
  });

  it('REP + manual: the balance is recomputed from the total, not the REP’s ImpSaldoInsoluto', () => {
    const r = computeEstadoPago(PPD, [app(1, 1000, 300)], [manual(700)]);
    expect(r.estadoPago).toMatchObject({
      estado: 'PAGADO',
      totalPagado: 1000,
      saldoPendiente: 0,
      ultimoSaldoInsoluto: 700,
    });
    expect(paymentDate(r.estadoPago, [app(1, 1000, 300)], [manual(700)])).toBe('2024-07-01');
  });

  it('a manual payment in another currency is not added', () => {
    const r = computeEstadoPago(PPD, [], [manual(50, { monedaPago: 'USD' })]);
    expect(r.estadoPago).toMatchObject({ estado: 'NO_PAGADO', totalPagado: 0, tienePagosManuales: true });
    expect(r.advertencias).toEqual(['pago manual en USD para una factura en MXN: no se suma']);
  });

  it('PUE with manual payments stays PAGADO at the total', () => {
    expect(computeEstadoPago(PUE, [], [manual(10)]).estadoPago).toMatchObject({
      estado: 'PAGADO',
      totalPagado: 1000,
    });
  });
});

describe('percentages and edge amounts', () => {
  it('porcentajePagado is rounded to 2 decimals', () => {
    expect(computeEstadoPago({ ...PPD, total: 3 }, [], [manual(1)]).estadoPago.porcentajePagado).toBe(33.33);
  });

  it('a zero-total PPD invoice counts as fully paid', () => {
    expect(computeEstadoPago({ ...PPD, total: 0 }, [], []).estadoPago).toMatchObject({
      estado: 'PAGADO',
      porcentajePagado: 100,
    });
  });
});

describe('applicationsFrom', () => {
  const parsed = (xml: string): Cfdi => {
    const r = parseCfdi(xml);
    if (!r.ok) throw new Error(r.reason);
    return r.cfdi;
  };

  it('one application per DoctoRelacionado, carrying the Pago header and EquivalenciaDR', () => {
    const rep = parsed(
      rep20(
        [
          'IdDocumento="dddddddd-0000-4000-8000-000000000001" MonedaDR="USD" EquivalenciaDR="0.05" NumParcialidad="2" ImpSaldoAnt="10" ImpPagado="4" ImpSaldoInsoluto="6"',
          'IdDocumento="dddddddd-0000-4000-8000-000000000002" MonedaDR="MXN" EquivalenciaDR="1" NumParcialidad="1" ImpSaldoAnt="20" ImpPagado="20" ImpSaldoInsoluto="0"',
        ],
        'FechaPago="2024-06-01T10:00:00" FormaDePagoP="03" MonedaP="MXN" TipoCambioP="1" Monto="100.00" NumOperacion="OP-9"',
      ),
    );
    expect(applicationsFrom(rep)).toEqual([
      {
        relatedUuid: 'DDDDDDDD-0000-4000-8000-000000000001',
        repUuid: rep.uuid,
        fechaPago: '2024-06-01T10:00:00',
        formaPago: '03',
        monedaP: 'MXN',
        tipoCambioP: 1,
        monto: 100,
        numOperacion: 'OP-9',
        monedaDR: 'USD',
        equivalenciaDR: 0.05,
        numParcialidad: 2,
        impSaldoAnt: 10,
        impPagado: 4,
        impSaldoInsoluto: 6,
      },
      expect.objectContaining({
        relatedUuid: 'DDDDDDDD-0000-4000-8000-000000000002',
        numParcialidad: 1,
        impPagado: 20,
      }),
    ]);
  });

  it('a Pagos 2.0 DR carries its own TrasladosDR / RetencionesDR by kind, and the Pago its TipoCambioP', () => {
    const doc =
      'IdDocumento="dddddddd-0000-4000-8000-000000000001" MonedaDR="MXN" EquivalenciaDR="1" NumParcialidad="1" ImpSaldoAnt="2000" ImpPagado="2000" ImpSaldoInsoluto="0"';
    const taxes = `<pago20:ImpuestosDR>
      <pago20:RetencionesDR>
        <pago20:RetencionDR BaseDR="1000" ImpuestoDR="001" TipoFactorDR="Tasa" TasaOCuotaDR="0.012500" ImporteDR="12.5"/>
        <pago20:RetencionDR BaseDR="1000" ImpuestoDR="002" TipoFactorDR="Tasa" TasaOCuotaDR="0.106667" ImporteDR="106.667"/>
      </pago20:RetencionesDR>
      <pago20:TrasladosDR>
        <pago20:TrasladoDR BaseDR="1000" ImpuestoDR="002" TipoFactorDR="Tasa" TasaOCuotaDR="0.160000" ImporteDR="160"/>
        <pago20:TrasladoDR BaseDR="500" ImpuestoDR="002" TipoFactorDR="Tasa" TasaOCuotaDR="0.080000" ImporteDR="40"/>
        <pago20:TrasladoDR BaseDR="100" ImpuestoDR="003" TipoFactorDR="Tasa" TasaOCuotaDR="0.080000" ImporteDR="8"/>
        <pago20:TrasladoDR BaseDR="50.5" ImpuestoDR="002" TipoFactorDR="Exento"/>
      </pago20:TrasladosDR>
    </pago20:ImpuestosDR>`;
    const xml = rep20(
      [doc],
      'FechaPago="2024-06-01T10:00:00" FormaDePagoP="03" MonedaP="USD" TipoCambioP="17.25" Monto="115.94"',
    ).replace('ObjetoImpDR="01"/>', `ObjetoImpDR="02">${taxes}</pago20:DoctoRelacionado>`);
    const [application] = applicationsFrom(parsed(xml));
    expect(application).toMatchObject({ tipoCambioP: 17.25, monedaP: 'USD' });
    expect(application!.impuestosDR).toEqual({
      base16: 1000,
      iva16: 160,
      base8: 500,
      iva8: 40,
      base0: 0,
      baseExenta: 50.5,
      ieps: 8,
      retencionIva: 106.667,
      retencionIsr: 12.5,
    });
  });

  it('a DR without ImpuestosDR (ObjetoImpDR 01) states no taxes', () => {
    const doc =
      'IdDocumento="dddddddd-0000-4000-8000-000000000001" MonedaDR="MXN" NumParcialidad="1" ImpSaldoAnt="10" ImpPagado="4" ImpSaldoInsoluto="6"';
    expect(applicationsFrom(parsed(rep20([doc])))[0]!.impuestosDR).toBeUndefined();
  });

  it('the same invoice and installment twice in one REP counts once', () => {
    const doc =
      'IdDocumento="dddddddd-0000-4000-8000-000000000001" MonedaDR="MXN" NumParcialidad="1" ImpSaldoAnt="10" ImpPagado="4" ImpSaldoInsoluto="6"';
    expect(applicationsFrom(parsed(rep20([doc, doc])))).toHaveLength(1);
  });

  it('a CFDI that is not a REP has none', () => {
    const notRep = parsed(rep20([]).replace('TipoDeComprobante="P"', 'TipoDeComprobante="I"'));
    expect(applicationsFrom(notRep)).toEqual([]);
  });

  it('Pagos 1.0 without installment fields: installment 1 settling what it pays; unknown amounts left out', () => {
    const base = {
      uuid: 'DDDDDDDD-0000-4000-8000-000000000001',
      monedaDR: 'MXN',
      equivalenciaDR: 1,
      metodoPagoDR: 'PUE' as const,
    };
    const rep = {
      ...parsed(rep20([])),
      pagos: [
        {
          fechaPago: '2018-03-01T12:00:00',
          formaPago: '03',
          monedaP: 'MXN',
          tipoCambioP: 1,
          monto: 100,
          doctos: [
            { ...base, impPagado: 100 },
            { ...base, uuid: 'DDDDDDDD-0000-4000-8000-000000000002' },
          ],
        },
      ],
    };
    expect(applicationsFrom(rep)).toEqual([
      expect.objectContaining({
        relatedUuid: base.uuid,
        metodoPagoDR: 'PUE',
        numParcialidad: 1,
        impSaldoAnt: 100,
        impPagado: 100,
        impSaldoInsoluto: 0,
      }),
    ]);
  });
});

// Issue 12 let the last REP's ImpSaldoInsoluto decide ("SAT's last word wins"); tax-rules §3 (issue
// 24) replaces it: a REP stating 0 after paying 600 of 1000 would settle 400 nobody paid.
describe('the balance follows ImpPagado, never a REP’s ImpSaldoInsoluto (tax-rules §3)', () => {
  it('only parcialidad 2 on file paying 600 of 1000 → PAGO_PARCIAL at 60 %, the REP flagged defective', () => {
    const second = app(2, 600, 600);
    const r = computeEstadoPago(PPD, [second], []);
    // 1000 − 600 = 400 pending, although the REP says 0.
    expect(r.estadoPago).toMatchObject({
      estado: 'PAGO_PARCIAL',
      saldoPendiente: 400,
      porcentajePagado: 60,
      completamentePagado: false,
      totalPagado: 600,
      ultimoSaldoInsoluto: 0,
    });
    expect(r.advertencias).toEqual([
      'faltan parcialidades: 1',
      `complemento ${second.repUuid} (parcialidad 2) defectuoso: ImpSaldoAnt 600.00 ≠ saldo a su FechaPago según pagos y notas (1000.00)`,
    ]);
  });

  it('a REP whose ImpSaldoInsoluto contradicts its payment: the payment counts, the REP is defective', () => {
    // Pays 300 of 1000 and states 0 left: 1000 − 300 = 700 pending.
    const first = app(1, 1000, 300, { impSaldoInsoluto: 0 });
    const r = computeEstadoPago(PPD, [first], []);
    expect(r.estadoPago).toMatchObject({ estado: 'PAGO_PARCIAL', saldoPendiente: 700, porcentajePagado: 30 });
    expect(r.advertencias).toEqual([
      `complemento ${first.repUuid} (parcialidad 1) defectuoso: ImpSaldoInsoluto 0.00 ≠ ImpSaldoAnt − ImpPagado (700.00)`,
    ]);
  });
});

describe('credit notes (E, TipoRelacion 01) against a PPD invoice', () => {
  const note = (
    total: number,
    fecha = '2024-03-01T10:00:00',
    extra: Partial<CreditNote> = {},
  ): CreditNote => ({
    uuid: `NOTE-${total}-${fecha}`,
    fecha,
    total,
    moneda: 'MXN',
    ...extra,
  });

  it('without payments: the credited amount is shown and lowers the balance', () => {
    const r = computeEstadoPago(PPD, [], [], [note(200)]);
    expect(r.estadoPago).toMatchObject({
      estado: 'PAGO_PARCIAL',
      totalPagado: 0,
      notasCredito: 200,
      saldoPendiente: 800,
      porcentajePagado: 20,
      completamentePagado: false,
    });
    expect(r.advertencias).toEqual([]);
  });

  it('a note for the whole remaining balance settles it', () => {
    const r = computeEstadoPago(PPD, [app(1, 1000, 400)], [], [note(600, '2024-05-01T00:00:00')]);
    expect(r.estadoPago).toMatchObject({ estado: 'PAGADO', saldoPendiente: 0, notasCredito: 600 });
  });

  it('a later complement already reflecting the note has the last word, without warning', () => {
    // note of 200 in March; the May payment starts from 800 and leaves 300
    const r = computeEstadoPago(
      PPD,
      [app(1, 800, 500, { fechaPago: '2024-05-15T10:00:00' })],
      [],
      [note(200)],
    );
    expect(r.estadoPago).toMatchObject({ saldoPendiente: 300, notasCredito: 200, ultimoSaldoInsoluto: 300 });
    expect(r.advertencias).toEqual([]);
  });

  it('a later complement that ignores the note: the balance is still total − paid − credited, the REP defective', () => {
    const first = app(1, 1000, 500, { fechaPago: '2024-05-15T10:00:00' });
    const r = computeEstadoPago(PPD, [first], [], [note(200)]);
    // 1000 − 500 − 200 = 300 (the REP, unaware of the March note, says 500).
    expect(r.estadoPago).toMatchObject({ saldoPendiente: 300, notasCredito: 200, ultimoSaldoInsoluto: 500 });
    expect(r.advertencias).toEqual([
      `complemento ${first.repUuid} (parcialidad 1) defectuoso: ImpSaldoAnt 1000.00 ≠ saldo a su FechaPago según pagos y notas (800.00)`,
    ]);
  });

  it('a note after the last complement lowers that complement’s balance', () => {
    const r = computeEstadoPago(
      PPD,
      [app(1, 1000, 500, { fechaPago: '2024-02-01T10:00:00' })],
      [],
      [note(200)],
    );
    expect(r.estadoPago).toMatchObject({ saldoPendiente: 300, porcentajePagado: 70, notasCredito: 200 });
    expect(r.advertencias).toEqual([]);
  });

  it('a note in another currency is not subtracted; a PUE invoice ignores notes', () => {
    const r = computeEstadoPago(PPD, [], [], [note(200, undefined, { moneda: 'USD', uuid: 'N-USD' })]);
    expect(r.estadoPago).toMatchObject({ saldoPendiente: 1000, estado: 'NO_PAGADO' });
    expect(r.estadoPago.notasCredito).toBeUndefined();
    expect(r.advertencias).toEqual(['nota de crédito N-USD en USD para una factura en MXN: no se resta']);
    expect(computeEstadoPago(PUE, [], [], [note(200)]).estadoPago).toMatchObject({ estado: 'PAGADO' });
  });
});

describe('only the payee’s complement pays an invoice (CFF 29-A fr. VII b)', () => {
  const invoice = { uuid: 'INV-1', rfcEmisor: 'ABC970701NN4', rfcReceptor: 'COSC8001137NA' };

  it('a REP issued by another party stays unapplied, with a warning for the REP', () => {
    const forged = { ...app(1, 1000, 1000), rep: { rfcEmisor: 'EKU9003173C9', rfcReceptor: 'ABC970701NN4' } };
    const r = payeeApplications(invoice, [forged]);
    expect(r.applied).toEqual([]);
    expect(r.unapplied).toEqual([
      {
        application: forged,
        warning:
          'el pago a la factura INV-1 no se aplica: el emisor del complemento (EKU9003173C9) no es el emisor de la factura (ABC970701NN4)',
      },
    ]);
  });

  it('the payee’s REP to another receptor counts, with a warning for the invoice', () => {
    const a = { ...app(1, 1000, 1000), rep: { rfcEmisor: 'ABC970701NN4', rfcReceptor: 'XAXX010101000' } };
    const r = payeeApplications(invoice, [a]);
    expect(r.applied).toEqual([a]);
    expect(r.invoiceWarnings).toEqual([
      `complemento ${a.repUuid}: su receptor (XAXX010101000) no es el receptor de la factura (COSC8001137NA)`,
    ]);
  });
});

describe('total in pesos', () => {
  it('MXN is itself, a foreign currency is converted with TipoCambio, a missing rate gives null and a warning', () => {
    expect(totalMxn(1160, 'MXN', null)).toEqual({ totalMxn: 1160 });
    expect(totalMxn(3248, 'USD', 17.2345)).toEqual({ totalMxn: 55977.66 });
    expect(totalMxn(3248, 'USD', undefined)).toEqual({
      totalMxn: null,
      advertencia: 'documento en USD sin TipoCambio: no se puede convertir a MXN',
    });
  });
});
