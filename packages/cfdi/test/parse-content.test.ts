// Field rules of the parsed Cfdi: literal dates, strict amounts, tax totals, Pagos normalisation
// and the parse-level warnings of docs/cfdi.md#document-warnings.
import { describe, expect, it } from 'vitest';
import { type Cfdi, parseCfdi } from '../src';
import { byRate, cfdi40, rep20 } from './build-cfdi';

function ok(input: string): Cfdi {
  const r = parseCfdi(input);
  if (!r.ok) throw new Error(r.reason);
  return r.cfdi;
}

function reason(input: string): string {
  const r = parseCfdi(input);
  if (r.ok) throw new Error('expected a rejection');
  return r.reason;
}

const concepto = (taxes: string, importe = '1000.00') =>
  `<cfdi:Concepto ClaveProdServ="80111600" Cantidad="1" ClaveUnidad="E48" Descripcion="x" ValorUnitario="${importe}" Importe="${importe}" ObjetoImp="02"><cfdi:Impuestos>${taxes}</cfdi:Impuestos></cfdi:Concepto>`;
const traslado = (base: string, tasa: string, importe: string, impuesto = '002') =>
  `<cfdi:Traslado Base="${base}" Impuesto="${impuesto}" TipoFactor="Tasa" TasaOCuota="${tasa}" Importe="${importe}"/>`;

describe('dates', () => {
  it('mes and año come from the literal Fecha text (a New Year’s Eve invoice stays in December)', () => {
    const c = ok(cfdi40({ fecha: '2024-12-31T23:59:59' }));
    expect(c).toMatchObject({ fecha: '2024-12-31T23:59:59', mes: 12, año: 2024 });
  });

  it('a Fecha that is not YYYY-MM-DDThh:mm:ss is refused', () => {
    expect(reason(cfdi40({ fecha: '31/12/2024' }))).toBe('Fecha inválida: "31/12/2024"');
    expect(reason(cfdi40({ fecha: '2024-13-01T00:00:00' }))).toBe('Fecha inválida: "2024-13-01T00:00:00"');
  });
});

describe('amounts', () => {
  it('decimal strings become numbers, up to 6 decimals', () => {
    expect(ok(cfdi40({ subTotal: '1000.000000', total: '1160.000000' })).total).toBe(1160);
  });

  it('an amount is the number its text denotes, as Number() reads it, at any length and precision', () => {
    let seed = 7;
    const digit = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return String(seed % 10);
    };
    const digits = (n: number) => Array.from({ length: n }, digit).join('');
    const texts = ['0', '0.000001', '999999999999.99', '000123.4500', '0.1', '0.7', '1.005', '2.675'];
    for (let int = 1; int <= 12; int++) {
      for (let decimals = 0; decimals <= 10; decimals++) {
        texts.push(decimals ? `${digits(int)}.${digits(decimals)}` : digits(int));
      }
    }
    for (const text of texts) expect(ok(cfdi40({ subTotal: text })).subTotal, text).toBe(Number(text));
  });

  it('a comma decimal separator is refused, naming the attribute', () => {
    expect(reason(cfdi40({ total: '1,160.00' }))).toBe(
      'valor numérico inválido en Comprobante@Total: "1,160.00"',
    );
  });

  it('a negative amount is refused', () => {
    expect(reason(cfdi40({ total: '-1160.00' }))).toBe(
      'valor numérico inválido en Comprobante@Total: "-1160.00"',
    );
  });

  it('a missing required attribute is refused', () => {
    expect(reason(cfdi40().replace(' Total="1160.00"', ''))).toBe('falta el atributo Total en Comprobante');
  });

  it('a missing Emisor node is refused', () => {
    expect(reason(cfdi40().replace(/<cfdi:Emisor [^>]*\/>/, ''))).toBe('falta el nodo Emisor en Comprobante');
  });

  it('an unknown TipoDeComprobante is refused', () => {
    expect(reason(cfdi40({ tipo: 'ingreso' }))).toBe('TipoDeComprobante no válido: "ingreso"');
  });

  it('an unknown MetodoPago is dropped with a warning', () => {
    const c = ok(cfdi40({ metodoPago: 'PPX' }));
    expect(c.metodoPago).toBeUndefined();
    expect(c.warnings).toEqual(['MetodoPago desconocido: "PPX"']);
  });
});

describe('taxes (docs/cfdi.md#reading-a-document)', () => {
  it('comprobante-level Impuestos win over concept sums', () => {
    const body = `<cfdi:Conceptos>${concepto(`<cfdi:Traslados>${traslado('1000', '0.160000', '159.99')}</cfdi:Traslados>`)}</cfdi:Conceptos>
      <cfdi:Impuestos TotalImpuestosTrasladados="160.00"><cfdi:Traslados>${traslado('1000.00', '0.160000', '160.00')}</cfdi:Traslados></cfdi:Impuestos>`;
    expect(ok(cfdi40({ body })).impuestos).toEqual({
      trasladosIva: 160,
      ivaRate: 16,
      retencionIva: 0,
      retencionIsr: 0,
      totalTrasladados: 160,
      porTasa: byRate({ base16: 1000, iva16: 160 }),
      retencionesPorTasa: [],
    });
  });

  it('without a comprobante-level Impuestos node, concept taxes are summed (rounded to cents)', () => {
    const body = `<cfdi:Conceptos>
      ${concepto(`<cfdi:Traslados>${traslado('500', '0.160000', '80.004')}</cfdi:Traslados><cfdi:Retenciones><cfdi:Retencion Base="500" Impuesto="001" TipoFactor="Tasa" TasaOCuota="0.100000" Importe="50"/></cfdi:Retenciones>`, '500')}
      ${concepto(`<cfdi:Traslados>${traslado('500', '0.160000', '79.996')}</cfdi:Traslados><cfdi:Retenciones><cfdi:Retencion Base="500" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.106667" Importe="53.33"/></cfdi:Retenciones>`, '500')}
    </cfdi:Conceptos>`;
    const c = ok(cfdi40({ body, total: '1056.67' }));
    expect(c.impuestos).toEqual({
      trasladosIva: 160,
      ivaRate: 16,
      retencionIva: 53.33,
      retencionIsr: 50,
      porTasa: byRate({ base16: 1000, iva16: 160 }),
      // Each concept's withholding with its rate and base (docs/cfdi.md#facts).
      retencionesPorTasa: [
        { impuesto: 'ISR', tasa: 0.1, base: 500, importe: 50 },
        { impuesto: 'IVA', tasa: 0.106667, base: 500, importe: 53.33 },
      ],
    });
    expect(c.warnings).toEqual([]);
  });

  it('mixed IVA rates: the rate with the largest base is reported', () => {
    const body = `<cfdi:Conceptos>${concepto(`<cfdi:Traslados>${traslado('300', '0.160000', '48')}</cfdi:Traslados>`, '300')}${concepto(`<cfdi:Traslados>${traslado('700', '0.000000', '0')}</cfdi:Traslados>`, '700')}</cfdi:Conceptos>`;
    expect(ok(cfdi40({ body, total: '1048' })).impuestos).toMatchObject({ trasladosIva: 48, ivaRate: 0 });
  });

  it('IVA at 8 % (border region) and IEPS: only IVA counts as trasladosIva', () => {
    const body = `<cfdi:Conceptos>${concepto(`<cfdi:Traslados>${traslado('1000', '0.080000', '80')}${traslado('1000', '0.265000', '265', '003')}</cfdi:Traslados>`)}</cfdi:Conceptos>`;
    const c = ok(cfdi40({ body, total: '1345' }));
    expect(c.impuestos).toMatchObject({ trasladosIva: 80, ivaRate: 8 });
    expect(c.warnings).toEqual([]);
  });

  it('exento only: no IVA amount and no rate', () => {
    const exento =
      '<cfdi:Traslados><cfdi:Traslado Base="1000" Impuesto="002" TipoFactor="Exento"/></cfdi:Traslados>';
    const c = ok(cfdi40({ body: `<cfdi:Conceptos>${concepto(exento)}</cfdi:Conceptos>`, total: '1000' }));
    expect(c.impuestos).toEqual({
      trasladosIva: 0,
      retencionIva: 0,
      retencionIsr: 0,
      porTasa: byRate({ baseExenta: 1000 }),
      retencionesPorTasa: [],
    });
  });

  it('a non-standard rate such as the 2/3 IVA withholding keeps 4 decimals as a percentage', () => {
    const body = `<cfdi:Conceptos>${concepto(`<cfdi:Traslados>${traslado('1000', '0.106667', '106.67')}</cfdi:Traslados>`)}</cfdi:Conceptos>`;
    expect(ok(cfdi40({ body, total: '1106.67' })).impuestos.ivaRate).toBe(10.6667);
  });
});

describe('taxes by rate (docs/cfdi.md#taxes-by-rate)', () => {
  const exento = (base: string) => `<cfdi:Traslado Base="${base}" Impuesto="002" TipoFactor="Exento"/>`;

  it('16 %, 8 %, 0 %, exempt and IEPS from the comprobante-level traslados, which win over the concepts', () => {
    const lines = (iva16: string) =>
      `<cfdi:Traslados>${traslado('1000', '0.160000', iva16)}${traslado('500', '0.080000', '40')}${traslado('300', '0.000000', '0')}${exento('200')}${traslado('100', '0.080000', '8', '003')}</cfdi:Traslados>`;
    // The concept says 159.99 at 16 %: the comprobante level (160.00) is what SAT validated.
    const body = `<cfdi:Conceptos>${concepto(lines('159.99'), '2000.00')}</cfdi:Conceptos>
      <cfdi:Impuestos TotalImpuestosTrasladados="208.00">${lines('160.00')}</cfdi:Impuestos>`;
    const c = ok(cfdi40({ body, subTotal: '2000.00', total: '2208.00' }));
    expect(c.impuestos.porTasa).toEqual({
      base16: 1000,
      iva16: 160,
      base8: 500,
      iva8: 40,
      base0: 300,
      baseExenta: 200,
      ieps: 8,
    });
    expect(c.impuestos.trasladosIva).toBe(200);
  });

  it('comprobante-level traslados without Base (CFDI 3.3): bases and amounts summed from the concepts', () => {
    const body = `<cfdi:Conceptos>
      ${concepto(`<cfdi:Traslados>${traslado('600.50', '0.160000', '96.08')}</cfdi:Traslados>`, '600.50')}
      ${concepto(`<cfdi:Traslados>${traslado('399.50', '0.160000', '63.92')}${exento('0')}</cfdi:Traslados>`, '399.50')}
      ${concepto(`<cfdi:Traslados>${exento('250')}</cfdi:Traslados>`, '250.00')}
    </cfdi:Conceptos>
    <cfdi:Impuestos TotalImpuestosTrasladados="160.00"><cfdi:Traslados><cfdi:Traslado Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="160.00"/></cfdi:Traslados></cfdi:Impuestos>`;
    const c = ok(cfdi40({ body, subTotal: '1250.00', total: '1410.00' }));
    expect(c.impuestos.porTasa).toEqual(
      byRate({ base16: 600.5 + 399.5, iva16: 96.08 + 63.92, baseExenta: 250 }),
    );
  });

  it('a document without taxes (a REP) has every kind at zero', () => {
    expect(ok(rep20([])).impuestos.porTasa).toEqual(byRate({}));
  });

  it('an IVA rate outside 16/8/0 % stays out of the rates (still in trasladosIva)', () => {
    const body = `<cfdi:Conceptos>${concepto(`<cfdi:Traslados>${traslado('1000', '0.106667', '106.67')}</cfdi:Traslados>`)}</cfdi:Conceptos>`;
    const c = ok(cfdi40({ body, total: '1106.67' }));
    expect(c.impuestos).toMatchObject({ trasladosIva: 106.67, porTasa: byRate({}) });
  });
});

describe('parse-level warnings (docs/cfdi.md#document-warnings)', () => {
  it('Total ≠ SubTotal − Descuento + Trasladados − Retenidos beyond 0.01', () => {
    expect(ok(cfdi40({ total: '1160.02' })).warnings).toEqual([
      'Total inconsistente: Total 1160.02 ≠ SubTotal − Descuento + Trasladados − Retenidos = 1160.00',
    ]);
  });

  it('a one-cent difference is within tolerance', () => {
    expect(ok(cfdi40({ total: '1160.01' })).warnings).toEqual([]);
  });

  it('Descuento is subtracted', () => {
    expect(ok(cfdi40({ descuento: '100.00', total: '1060.00' })).warnings).toEqual([]);
  });

  it('implocal local taxes are part of the Total', () => {
    const complementos =
      '<implocal:ImpuestosLocales xmlns:implocal="http://www.sat.gob.mx/implocal" version="1.0" TotaldeRetenciones="10.00" TotaldeTraslados="25.00"/>';
    expect(ok(cfdi40({ complementos, total: '1175.00' })).warnings).toEqual([]);
  });

  it('an RFC with a bad format', () => {
    expect(ok(cfdi40({ receptor: { rfc: 'COSC8013137NA' } })).warnings).toEqual([
      'RFC del receptor con formato inválido: "COSC8013137NA"',
    ]);
  });

  it('an RFC whose check digit does not match', () => {
    expect(ok(cfdi40({ emisor: { rfc: 'EKU9003173C8' } })).warnings).toEqual([
      'RFC del emisor EKU9003173C8: el dígito verificador no coincide (se esperaba 9)',
    ]);
  });

  it('the generic RFCs are not flagged for their check digit', () => {
    expect(ok(cfdi40({ receptor: { rfc: 'XAXX010101000', regimen: '616' } })).warnings).toEqual([]);
  });

  it('RFCs are upper-cased', () => {
    expect(ok(cfdi40({ emisor: { rfc: 'eku9003173c9' } })).emisor.rfc).toBe('EKU9003173C9');
  });

  it('an unknown regime code; legacy codes (609) are accepted', () => {
    expect(ok(cfdi40({ emisor: { regimen: '999' } })).warnings).toEqual([
      'régimen fiscal del emisor desconocido: "999"',
    ]);
    expect(ok(cfdi40({ emisor: { regimen: '609' } })).warnings).toEqual([]);
  });

  it('a regime that does not apply to the RFC’s person type', () => {
    expect(ok(cfdi40({ receptor: { regimen: '601' } })).warnings).toEqual([
      'régimen fiscal 601 del receptor no aplica a persona física (RFC COSC8001137NA)',
    ]);
  });

  it('a traslado is informational', () => {
    const c = ok(
      cfdi40({ tipo: 'T', metodoPago: null, subTotal: '0', total: '0', body: '<cfdi:Conceptos/>' }),
    );
    expect(c.warnings).toEqual(['CFDI de traslado (T): informativo, sin importes']);
  });
});

describe('Pagos normalisation', () => {
  const UUID_A = 'aaaaaaaa-0000-4000-8000-000000000001';

  it('EquivalenciaDR defaults to 1 when MonedaDR = MonedaP; missing across currencies warns', () => {
    const same = ok(
      rep20([
        `IdDocumento="${UUID_A}" MonedaDR="MXN" NumParcialidad="1" ImpSaldoAnt="100" ImpPagado="100" ImpSaldoInsoluto="0"`,
      ]),
    );
    expect(same.pagos![0]!.doctos[0]).toMatchObject({ uuid: UUID_A.toUpperCase(), equivalenciaDR: 1 });
    expect(same.warnings).toEqual([]);
    const usd = ok(
      rep20([
        `IdDocumento="${UUID_A}" MonedaDR="USD" NumParcialidad="1" ImpSaldoAnt="5" ImpPagado="5" ImpSaldoInsoluto="0"`,
      ]),
    );
    expect(usd.warnings).toEqual([
      `DoctoRelacionado ${UUID_A.toUpperCase()} en USD pagado en MXN sin EquivalenciaDR; se toma 1`,
    ]);
  });

  it('Pagos 2.0 without a required installment field is refused', () => {
    expect(
      reason(
        rep20([
          `IdDocumento="${UUID_A}" MonedaDR="MXN" ImpSaldoAnt="100" ImpPagado="100" ImpSaldoInsoluto="0"`,
        ]),
      ),
    ).toBe('falta el atributo NumParcialidad en DoctoRelacionado');
  });

  it('a Pago in a foreign currency without TipoCambioP warns and takes 1', () => {
    const c = ok(
      rep20(
        [
          `IdDocumento="${UUID_A}" MonedaDR="USD" NumParcialidad="1" ImpSaldoAnt="100" ImpPagado="100" ImpSaldoInsoluto="0"`,
        ],
        'FechaPago="2024-06-01T10:00:00" FormaDePagoP="03" MonedaP="USD" Monto="100.00"',
      ),
    );
    expect(c.pagos![0]!.tipoCambioP).toBe(1);
    expect(c.warnings).toEqual(['Pago en USD sin TipoCambioP; se toma 1']);
  });

  it('a payment CFDI without a Pagos complement warns', () => {
    const c = ok(cfdi40({ tipo: 'P', metodoPago: null, moneda: 'XXX', subTotal: '0', total: '0', body: '' }));
    expect(c.pagos).toBeUndefined();
    expect(c.warnings).toEqual(['CFDI de pago sin complemento Pagos']);
  });

  it('pagos are only read for TipoDeComprobante P', () => {
    expect(ok(cfdi40()).pagos).toBeUndefined();
  });
});

describe('Pagos 1.0 (CFDI 3.3)', () => {
  const pagos10 = (doctos: string, monto = '100.00') =>
    cfdi40({ tipo: 'P', metodoPago: null, moneda: 'XXX', subTotal: '0', total: '0', body: '' })
      .replace('http://www.sat.gob.mx/cfd/4', 'http://www.sat.gob.mx/cfd/3')
      .replace('Version="4.0"', 'Version="3.3"')
      .replace(
        '<cfdi:Complemento>',
        `<cfdi:Complemento><pago10:Pagos xmlns:pago10="http://www.sat.gob.mx/Pagos" Version="1.0"><pago10:Pago FechaPago="2018-03-01T12:00:00" FormaDePagoP="03" MonedaP="MXN" Monto="${monto}">${doctos}</pago10:Pago></pago10:Pagos>`,
      );

  it('a single document without ImpPagado is paid the Pago’s Monto (CfdiUtils rule)', () => {
    const c = ok(
      pagos10(
        '<pago10:DoctoRelacionado IdDocumento="aaaaaaaa-0000-4000-8000-000000000001" MonedaDR="MXN" MetodoDePagoDR="PUE"/>',
      ),
    );
    expect(c.pagos![0]!.doctos).toEqual([
      {
        uuid: 'AAAAAAAA-0000-4000-8000-000000000001',
        monedaDR: 'MXN',
        equivalenciaDR: 1,
        metodoPagoDR: 'PUE',
        impPagado: 100,
      },
    ]);
    expect(c.warnings).toEqual([]);
  });

  it('several documents without ImpPagado stay unknown, with a warning', () => {
    const d = (n: number) =>
      `<pago10:DoctoRelacionado IdDocumento="aaaaaaaa-0000-4000-8000-00000000000${n}" MonedaDR="MXN" MetodoDePagoDR="PUE"/>`;
    const c = ok(pagos10(d(1) + d(2)));
    expect(c.pagos![0]!.doctos.map((x) => x.impPagado)).toEqual([undefined, undefined]);
    expect(c.warnings).toEqual([
      'Pagos 1.0: DoctoRelacionado AAAAAAAA-0000-4000-8000-000000000001 sin ImpPagado',
      'Pagos 1.0: DoctoRelacionado AAAAAAAA-0000-4000-8000-000000000002 sin ImpPagado',
    ]);
  });

  it('TipoCambioDR becomes equivalenciaDR', () => {
    const c = ok(
      pagos10(
        '<pago10:DoctoRelacionado IdDocumento="aaaaaaaa-0000-4000-8000-000000000001" MonedaDR="USD" TipoCambioDR="0.05" MetodoDePagoDR="PPD" NumParcialidad="1" ImpSaldoAnt="5" ImpPagado="5" ImpSaldoInsoluto="0"/>',
      ),
    );
    expect(c.pagos![0]!.doctos[0]).toMatchObject({
      equivalenciaDR: 0.05,
      metodoPagoDR: 'PPD',
      numParcialidad: 1,
    });
  });
});
