import { describe, expect, it } from 'vitest';
import { withTurns } from '../../../../test/event-loop-turns';
import { finishYielding } from '../yielding';
import { dec, toMoney } from './decimal';
import { tipoTercero } from './diot';
import {
  annualReport,
  annualReportSteps,
  isOpen,
  monthlyReport,
  monthlyReportSteps,
  type ReportProfile,
} from './monthly';
import { resicoTasa } from './resico';
import type { PendingDoc, ReportDoc, ReportPayment, ReportRows } from './rows';
import { CHUNK } from './steps';

const profile: ReportProfile = {
  id: 'p1',
  rfc: 'GOMA800101AB6',
  nombre: 'Ana',
  tipoPersona: 'FISICA',
  regimenesFiscales: ['626'],
};
const CLOSED = new Date('2026-01-01T00:00:00Z');

let n = 0;
function doc(fields: Partial<ReportDoc>): ReportDoc {
  n++;
  return {
    id: `d${n}`,
    uuid: `U${n}`,
    side: 'income',
    tipoComprobante: 'I',
    metodoPago: 'PUE',
    fecha: '2025-03-10T10:00:00',
    moneda: 'MXN',
    tipoCambio: null,
    subtotal: '100',
    descuento: null,
    total: '116',
    ivaTrasladado: '16',
    retencionIva: null,
    retencionIsr: null,
    ivaTasa: '16',
    ivaPorTasa: null,
    rfcEmisor: profile.rfc,
    nombreEmisor: profile.nombre,
    rfcReceptor: 'COSC8001137NA',
    nombreReceptor: 'Carlos',
    valido: true,
    documentos: 1,
    pendingTaxDetail: 0,
    formaPago: '03',
    baseNoObjeto: '0',
    interesGravado: '0',
    interesExento: '0',
    interesNoObjeto: '0',
    combustible: false,
    usoIva: null,
    acto5c: false,
    ...fields,
  };
}

const none = { base: 0, iva: 0 };
/** flujo's por_tasa with the given rates, the others zero. */
const porTasa = (p: Record<string, { base: number; iva: number }>) => ({
  tasa_16: none,
  tasa_8: none,
  tasa_0: none,
  exento: none,
  no_objeto: none,
  ...p,
});

const rows = (r: Partial<ReportRows>): ReportRows => ({
  docs: [],
  payments: [],
  manualExpenses: [],
  pending: [],
  notes: [],
  ...r,
});
const march = (r: Partial<ReportRows>, nivel: 'basic' | 'complete' | 'advanced' = 'advanced', now = CLOSED) =>
  monthlyReport(profile, rows(r), { año: 2025, mes: 3 }, nivel, now);

function payment(invoice: ReportDoc | null, fields: Partial<ReportPayment>): ReportPayment {
  return {
    source: 'rep',
    ref: 'REP',
    side: 'income',
    relatedUuid: invoice?.uuid ?? 'MISSING',
    rfcEmisor: profile.rfc,
    fechaPago: '2025-03-15T12:00:00',
    monedaP: 'MXN',
    tipoCambioP: null,
    equivalenciaDr: null,
    importe: '0',
    monedaDr: invoice?.moneda ?? 'MXN',
    impuestosDr: null,
    repPendingTaxDetail: false,
    defectos: [],
    invoice,
    formaPago: '03',
    ...fields,
  };
}

describe('exact money, rounded once', () => {
  it('parses decimals exactly and rounds half away from zero only when shown', () => {
    expect(toMoney(dec('0.005'))).toBe(0.01);
    expect(toMoney(dec('-0.005'))).toBe(-0.01);
    expect(toMoney(dec('1.004999'))).toBe(1);
    expect(toMoney(dec(0.1) + dec(0.2))).toBe(0.3);
  });

  it('sums unrounded amounts: two IVAs of 0.005 show 0.01, not 0.02', () => {
    const docs = [
      doc({ ivaTrasladado: '0.005', total: '100.005' }),
      doc({ ivaTrasladado: '0.005', total: '100.005' }),
    ];
    expect(march({ docs }).ingresos.iva_trasladado).toBe(0.01);
  });

  it('three thirds of an invoice paid in three payments add up to its IVA exactly', () => {
    const invoice = doc({
      metodoPago: 'PPD',
      fecha: '2025-02-01T00:00:00',
      subtotal: '100',
      ivaTrasladado: '16',
      total: '116',
    });
    const third = (116 / 3).toFixed(6);
    const payments = [third, third, (116 - 2 * Number(third)).toFixed(6)].map((importe) =>
      payment(invoice, { importe }),
    );
    const flujo = march({ payments }).flujo!;
    expect(flujo.cobrado).toEqual({
      base: 100,
      iva_trasladado: 16,
      retencion_iva: 0,
      retencion_isr: 0,
      total: 116,
      por_tasa: porTasa({ tasa_16: { base: 100, iva: 16 } }),
    });
  });
});

describe('RESICO monthly rate (LISR 113-E) at the bracket edges', () => {
  const cases: Array<[string, string]> = [
    ['0.00', '1.00'],
    ['25000.00', '1.00'],
    ['25000.01', '1.10'],
    ['50000.00', '1.10'],
    ['50000.01', '1.50'],
    ['83333.33', '1.50'],
    ['83333.34', '2.00'],
    ['208333.33', '2.00'],
    ['208333.34', '2.50'],
    ['3500000.00', '2.50'],
  ];
  it.each(cases)('%s → %s %%', (ingresos, tasa) => {
    expect(resicoTasa(dec(ingresos))).toEqual({ tasa: dec(tasa), excedido: false });
  });

  it('above 3,500,000.00 the regime no longer applies: last rate, and a warning', () => {
    expect(resicoTasa(dec('3500000.01')).excedido).toBe(true);
    const report = march({ docs: [doc({ subtotal: '3600000', ivaTrasladado: '0', total: '3600000' })] });
    expect(report.resico?.tasa).toBe(2.5);
    expect(report.advertencias.some((a) => a.includes('3,500,000.00'))).toBe(true);
  });

  it('isr_a_pagar never goes below zero when clients withheld more', () => {
    const docs = [doc({ subtotal: '1000', ivaTrasladado: '0', retencionIsr: '12.5', total: '987.5' })];
    expect(march({ docs }).resico).toEqual({
      ingresos_cobrados: 1000,
      tasa: 1,
      isr_causado: 10,
      isr_retenido: 12.5,
      isr_a_pagar: 0,
    });
  });

  it('only for a persona física in régimen 626', () => {
    const moral = { ...profile, tipoPersona: 'MORAL' as const, regimenesFiscales: ['601'] };
    const report = monthlyReport(moral, rows({ docs: [doc({})] }), { año: 2025, mes: 3 }, 'advanced', CLOSED);
    expect(report.resico).toBeUndefined();
  });
});

describe('payments in foreign currency', () => {
  const usd = doc({
    metodoPago: 'PPD',
    moneda: 'USD',
    tipoCambio: '17',
    subtotal: '100',
    ivaTrasladado: '16',
    total: '116',
    fecha: '2025-02-01',
  });

  it('TipoCambioP of a payment in the invoice’s currency converts it', () => {
    const flujo = march({ payments: [payment(usd, { monedaP: 'USD', tipoCambioP: '18', importe: '116' })] })
      .flujo!;
    expect(flujo.cobrado.total).toBe(116 * 18);
    expect(flujo.cobrado.iva_trasladado).toBe(16 * 18);
  });

  it('a payment in pesos converts through EquivalenciaDR', () => {
    // 116 USD paid with 2,088 MXN: EquivalenciaDR = 116 / 2088 USD per peso.
    const flujo = march({
      payments: [payment(usd, { monedaP: 'MXN', equivalenciaDr: (116 / 2088).toFixed(10), importe: '116' })],
    }).flujo!;
    expect(flujo.cobrado.total).toBe(2088);
  });

  it('without a rate on the payment, the invoice’s TipoCambio', () => {
    const flujo = march({ payments: [payment(usd, { monedaP: 'USD', tipoCambioP: null, importe: '58' })] })
      .flujo!;
    expect(flujo.cobrado.total).toBe(58 * 17);
  });

  it('a foreign document without a rate is left out and warned about', () => {
    const report = march({ docs: [doc({ moneda: 'USD', tipoCambio: null })] });
    expect(report.ingresos.documentos).toBe(0);
    expect(report.advertencias).toEqual([expect.stringMatching(/USD sin tipo de cambio/)]);
  });
});

describe('pendientes: each PPD invoice’s balance at each month’s end', () => {
  /** A PPD invoice of the profile and what lowered its balance, by date. */
  const open = (
    uuid: string,
    side: 'income' | 'expense',
    fecha: string,
    total: string,
    abonos: PendingDoc['abonos'],
    moneda = 'MXN',
  ): PendingDoc => ({
    doc: {
      uuid,
      side,
      fecha,
      moneda,
      tipoCambio: null,
      total,
      rfcEmisor: side === 'income' ? profile.rfc : 'EKU9003173C9',
      nombreEmisor: side === 'income' ? profile.nombre : 'Proveedor',
      rfcReceptor: side === 'income' ? 'COSC8001137NA' : profile.rfc,
      nombreReceptor: side === 'income' ? 'Carlos' : profile.nombre,
      valido: true,
    },
    abonos,
  });

  it('Total − payments dated up to the month’s end; a balance in a currency without a rate is named each month, not counted', () => {
    const { meses } = annualReport(
      profile,
      rows({
        pending: [
          // 1,160.00 invoiced in January, 580.00 paid on February 20 and 580.00 on April 2:
          // open 1,160.00 at January's end, 1,160 − 580 = 580.00 at February's and March's, none after.
          open('A', 'income', '2025-01-10T10:00:00', '1160', [
            { fecha: '2025-04-02T09:00:00', importe: '580' },
            { fecha: '2025-02-20T09:00:00', importe: '580' },
          ]),
          // A supplier's 232.00 of February, never paid: 232.00 to pay from February on.
          open('C', 'expense', '2025-02-01T10:00:00', '232', []),
          // 100 USD of March without TipoCambio: left out of the sums, named in March and April.
          open(
            'B',
            'income',
            '2025-03-05T10:00:00',
            '100',
            [{ fecha: '2025-05-01T00:00:00', importe: '100' }],
            'USD',
          ),
        ],
      }),
      2025,
      'advanced',
      CLOSED,
    );
    // By month: [to collect: documents, balance], [to pay: documents, balance].
    const expected: Array<[[number, number], [number, number]]> = [
      [
        [1, 1160],
        [0, 0],
      ],
      [
        [1, 580],
        [1, 232],
      ],
      [
        [1, 580],
        [1, 232],
      ],
      [
        [0, 0],
        [1, 232],
      ],
    ];
    const sums = ([documentos, saldo]: [number, number]) => ({ documentos, saldo });
    expect(meses.slice(0, 4).map((m) => m.pendientes)).toEqual(
      expected.map(([cobrar, pagar]) => ({ por_cobrar: sums(cobrar), por_pagar: sums(pagar) })),
    );
    const unrated = (mes: number) => meses[mes - 1]!.advertencias.filter((a) => a.includes('saldo de B'));
    expect([2, 3, 4, 5].map((mes) => unrated(mes).length)).toEqual([0, 1, 1, 0]);
    expect(unrated(3)).toEqual(['saldo de B en USD sin tipo de cambio: no se cuenta en pendientes']);
  });
});

describe('the complement’s own taxes', () => {
  it('TrasladosDR / RetencionesDR replace the proportion when present', () => {
    const invoice = doc({
      metodoPago: 'PPD',
      fecha: '2025-02-01',
      subtotal: '1000',
      ivaTrasladado: '160',
      retencionIsr: '12.5',
      total: '1147.5',
    });
    const stated = {
      retencionIva: '0',
      retencionIsr: '6.25',
      porTasa: { base16: '500', iva16: '80', base8: null, iva8: null, base0: null, baseExenta: null },
    };
    const flujo = march({ payments: [payment(invoice, { importe: '573.75', impuestosDr: stated })] }).flujo!;
    expect(flujo.cobrado).toEqual({
      base: 500,
      iva_trasladado: 80,
      retencion_iva: 0,
      retencion_isr: 6.25,
      total: 573.75,
      por_tasa: porTasa({ tasa_16: { base: 500, iva: 80 } }),
    });
  });
});

describe('advertencias', () => {
  it('invalid CFDI are left out and named', () => {
    const report = march({ docs: [doc({ uuid: 'BAD', valido: false })] });
    expect(report.ingresos.documentos).toBe(0);
    expect(report.advertencias).toEqual(['CFDI BAD inválido: no se cuenta']);
  });

  it('CFDI still waiting for the tax-detail back-fill are counted once each: the month’s documents, its payments’ complements and invoices', () => {
    const feb = doc({ uuid: 'FEB', metodoPago: 'PPD', fecha: '2025-02-01', pendingTaxDetail: 1 });
    const mar = doc({ uuid: 'MAR', metodoPago: 'PPD', fecha: '2025-03-02', pendingTaxDetail: 1 });
    const report = march({
      // A row of the query standing for three documents, two of them pending; and March's invoice.
      docs: [doc({ documentos: 3, pendingTaxDetail: 2 }), mar],
      payments: [
        // One complement paying both invoices: itself and February's invoice (March's is counted above).
        payment(feb, { ref: 'REP', importe: '10', repPendingTaxDetail: true }),
        payment(mar, { ref: 'REP', importe: '10', repPendingTaxDetail: true }),
      ],
    });
    expect(report.advertencias).toEqual([
      '5 CFDI del periodo aún no tienen el desglose de IVA por tasa; las cifras se completarán cuando termine la actualización',
    ]);
    const one = march({ docs: [doc({ pendingTaxDetail: 1 })] });
    expect(one.advertencias).toEqual([
      '1 CFDI del periodo aún no tiene el desglose de IVA por tasa; las cifras se completarán cuando termine la actualización',
    ]);
    expect(march({ docs: [doc({})], payments: [payment(feb, { importe: '10' })] }).advertencias).toEqual([
      '1 CFDI del periodo aún no tiene el desglose de IVA por tasa; las cifras se completarán cuando termine la actualización',
    ]);
  });

  it('a month not yet ended in Mexico City is open (UTC−6: April 1, 05:30 UTC is still March 31)', () => {
    expect(isOpen({ año: 2025, mes: 3 }, new Date('2025-04-01T05:30:00Z'))).toBe(true);
    expect(isOpen({ año: 2025, mes: 3 }, new Date('2025-04-01T06:30:00Z'))).toBe(false);
    expect(march({}, 'basic', new Date('2025-03-20T12:00:00Z')).advertencias).toEqual([
      'el periodo 2025-03 sigue abierto: las cifras pueden cambiar',
    ]);
  });
});

describe('levels', () => {
  it('basic has no cash sections; complete has no resico', () => {
    expect(Object.keys(march({}, 'basic')).sort()).toEqual([
      'advertencias',
      'egresos',
      'ingresos',
      'nivel',
      'periodo',
      'profile',
    ]);
    const complete = march({}, 'complete');
    expect(complete.flujo).toBeDefined();
    expect(complete.resico).toBeUndefined();
  });
});

describe('DIOT tipo de tercero', () => {
  it('04 national, 05 foreign (XEXX010101000), 15 global (XAXX010101000)', () => {
    expect(tipoTercero('EKU9003173C9')).toBe('04');
    expect(tipoTercero('XEXX010101000')).toBe('05');
    expect(tipoTercero('XAXX010101000')).toBe('15');
  });
});

describe('payments that do not count', () => {
  it('a complement whose invoice is missing, or from someone else than the invoice’s issuer, is named and left out', () => {
    const invoice = doc({ uuid: 'INV', metodoPago: 'PPD', fecha: '2025-02-01' });
    const report = march({
      payments: [
        payment(null, { ref: 'R1', relatedUuid: 'GONE', importe: '10' }),
        payment(invoice, { ref: 'R2', rfcEmisor: 'OTRO010101AAA', importe: '10' }),
      ],
    });
    expect(report.flujo?.cobrado.total).toBe(0);
    expect(report.advertencias).toEqual([
      'complemento R1: paga la factura GONE, que no está en Folio; no se cuenta',
      'complemento R2: su emisor no es el de la factura INV; no se cuenta',
    ]);
  });
});

describe('credit notes on the cash basis (tax-rules §2)', () => {
  // A PPD invoice of 1,000 + 160 − 106.67 IVA withheld (LIVA 1-A) = 1,053.33, paid in full on
  // February 20; a note of 100 + 16 − 10.67 = 105.33 dated March 5.
  const invoice = {
    uuid: 'INV',
    tipoComprobante: 'I',
    metodoPago: 'PPD' as const,
    fecha: '2025-01-15T10:00:00',
    moneda: 'MXN',
    total: '1053.33',
    retencionIva: '106.67',
    valido: true,
    history: [
      {
        fecha: '2025-02-20T10:00:00',
        importe: '1053.33',
        kind: 'pago' as const,
        ref: 'REP',
        tipoRelacion: null,
        related: null,
      },
    ],
  };
  const note = doc({
    tipoComprobante: 'E',
    fecha: '2025-03-05T10:00:00',
    subtotal: '100',
    total: '105.33',
    ivaTrasladado: '16',
    retencionIva: '10.67',
  });
  const report = (mes: number) =>
    monthlyReport(
      profile,
      rows({
        notes: [
          {
            doc: note,
            formaPago: '03',
            relacionados: [{ tipoRelacion: '01', uuid: 'INV' }],
            invoices: [invoice],
          },
        ],
      }),
      { año: 2025, mes },
      'advanced',
      CLOSED,
    );

  it('with IVA withheld on a PPD invoice, the refund lowers the month of its last payment, flagged "complementaria" (LIVA 1-A)', () => {
    const february = report(2);
    const { por_tasa, ...cobrado } = february.flujo?.cobrado ?? {};
    expect(cobrado).toEqual({
      base: -100,
      iva_trasladado: -16,
      retencion_iva: -10.67,
      retencion_isr: 0,
      total: -105.33,
    });
    // The refund's base and IVA are at 16 % (the totals by rate of tax-rules §4).
    expect(por_tasa?.tasa_16).toEqual({ base: -100, iva: -16 });
    expect(february.advertencias.some((a) => a.includes('complementaria'))).toBe(true);
    expect(report(3).flujo?.cobrado.total).toBe(0);
  });
});

describe('a report in steps (steps.ts): the same figures, with the event loop given back between chunks', () => {
  // 100 invoices on the 10th of every month of 2025: 1,200 documents, several CHUNKs.
  const year = rows({
    docs: Array.from({ length: 1_200 }, (_, i) =>
      doc({ fecha: `2025-${String(1 + (i % 12)).padStart(2, '0')}-10T10:00:00` }),
    ),
  });

  it('a December report (the year from January) lets other work run at least once per CHUNK documents', async () => {
    const december = { año: 2025, mes: 12 };
    const { result: report, turns } = await withTurns(() =>
      finishYielding(monthlyReportSteps(profile, year, december, 'advanced', CLOSED)),
    );
    expect(turns).toBeGreaterThanOrEqual(1_200 / CHUNK);
    expect(report).toEqual(monthlyReport(profile, year, december, 'advanced', CLOSED));
    // 100 invoices of 100 + 16 IVA in December, cobrado (PUE) the same month.
    expect(report.flujo?.cobrado.base).toBe(100 * 100);
  });

  it('the annual report in steps equals the one computed straight through', async () => {
    const { result: report, turns } = await withTurns(() =>
      finishYielding(annualReportSteps(profile, year, 2025, 'advanced', CLOSED)),
    );
    expect(turns).toBeGreaterThanOrEqual(1_200 / CHUNK + 12);
    expect(report).toEqual(annualReport(profile, year, 2025, 'advanced', CLOSED));
  });
});
