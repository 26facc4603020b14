// The CFDI facts the tax reports read (docs/cfdi.md#facts), derived from documents the project's
// builder generates and from the real Nómina sample.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  applicationsFrom,
  type Cfdi,
  cfdiFacts,
  isAnticipo,
  isFuel,
  isProduct,
  isRent,
  isService,
  parseCfdi,
} from '../src';
import { invoiceXml, newUuid, type Party, paymentXml, payrollXml } from '../src/testing/generate';

const FISICA: Party = { rfc: 'COSC8001137NA', nombre: 'CARLOS CORTES SOTO', regimen: '612' };
const MORAL: Party = { rfc: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', regimen: '601' };

function parsed(xml: string): Cfdi {
  const r = parseCfdi(xml);
  if (!r.ok) throw new Error(r.reason);
  return r.cfdi;
}

describe('CFDI facts', () => {
  it('a credit note keeps FormaPago, MetodoPago and every CfdiRelacionados group in list order', () => {
    const [a, b, c] = [newUuid(), newUuid(), newUuid()];
    const note = parsed(
      invoiceXml({
        uuid: newUuid(),
        emisor: MORAL,
        receptor: FISICA,
        fecha: '2025-03-10T10:00:00',
        tipoDeComprobante: 'E',
        formaPago: '30',
        relacionados: [
          { tipoRelacion: '07', uuids: [b, a] },
          { tipoRelacion: '01', uuids: [c] },
        ],
      }),
    );
    expect(note).toMatchObject({ tipoDeComprobante: 'E', formaPago: '30', metodoPago: 'PUE' });
    expect(cfdiFacts(note).relacionados).toEqual([
      { tipoRelacion: '07', uuids: [b, a] },
      { tipoRelacion: '01', uuids: [c] },
    ]);
  });

  it('base by ObjetoImp, IVA by rate and the concepts by ClaveProdServ (fuel, advance, interest, exempt, no objeto)', () => {
    const cfdi = parsed(
      invoiceXml({
        uuid: newUuid(),
        emisor: FISICA,
        receptor: MORAL,
        fecha: '2025-03-10T10:00:00',
        lugarExpedicion: '22000',
        conceptos: [
          { descripcion: 'Consultoría', importe: 1000, claveProdServ: '80101500' },
          { descripcion: 'Magna', importe: 500, claveProdServ: '15101514' },
          { descripcion: 'Intereses moratorios', importe: 200, claveProdServ: '84101700', ivaRate: 'exento' },
          { descripcion: 'Cuota', importe: 300, claveProdServ: '80101500', objetoImp: '01' },
          { descripcion: 'Renta local', importe: 400, claveProdServ: '80131502', ivaRate: 8 },
        ],
      }),
    );
    const facts = cfdiFacts(cfdi);
    expect(cfdi.lugarExpedicion).toBe('22000');
    expect(facts.emisorPersonaFisica).toBe(true);
    // 01: the 300 cuota; 02: 1000 + 500 + 200 + 400.
    expect(facts.basePorObjetoImp).toEqual({ '02': 1000 + 500 + 200 + 400, '01': 300 });
    expect(cfdi.impuestos.porTasa).toMatchObject({
      base16: 1000 + 500,
      iva16: 160 + 80,
      base8: 400,
      iva8: 400 * 0.08,
      baseExenta: 200,
    });
    expect(facts.conceptos).toEqual([
      { claveProdServ: '80101500', objetoImp: '02', interes: false, base: 1000, iva: 160 },
      { claveProdServ: '15101514', objetoImp: '02', interes: false, base: 500, iva: 80 },
      // "Intereses" in the description (LIVA 5-C), its code aside.
      { claveProdServ: '84101700', objetoImp: '02', interes: true, base: 200, iva: 0 },
      { claveProdServ: '80101500', objetoImp: '01', interes: false, base: 300, iva: 0 },
      { claveProdServ: '80131502', objetoImp: '02', interes: false, base: 400, iva: 32 },
    ]);
    expect(isFuel('15101514')).toBe(true);
    expect(isRent('80131502')).toBe(true);
    expect([isProduct('15101514'), isService('15101514')]).toEqual([true, false]);
    expect([isProduct('80101500'), isService('80101500')]).toEqual([false, true]);
    expect(isAnticipo(facts)).toBe(false);
  });

  it('interest by ClaveProdServ 841017xx / 841215xx even without the word', () => {
    const cfdi = parsed(
      invoiceXml({
        uuid: newUuid(),
        emisor: MORAL,
        receptor: FISICA,
        fecha: '2025-03-10T10:00:00',
        conceptos: [
          { descripcion: 'Rendimientos', importe: 100, claveProdServ: '84121501', ivaRate: 'exento' },
        ],
      }),
    );
    expect(cfdiFacts(cfdi).conceptos[0]).toMatchObject({ interes: true });
  });

  it("an advance's CFDI is recognised by ClaveProdServ 84111506; a persona moral issuer is not física", () => {
    const facts = cfdiFacts(
      parsed(
        invoiceXml({
          uuid: newUuid(),
          emisor: MORAL,
          receptor: FISICA,
          fecha: '2025-03-10T10:00:00',
          conceptos: [
            { descripcion: 'Anticipo del bien o servicio', importe: 5000, claveProdServ: '84111506' },
          ],
        }),
      ),
    );
    expect(isAnticipo(facts)).toBe(true);
    expect(facts.emisorPersonaFisica).toBe(false);
  });

  it('withholdings by tax and rate: ISR 10 % and IVA two thirds of 16 % (LISR 106, LIVA 1-A)', () => {
    const cfdi = parsed(
      invoiceXml({
        uuid: newUuid(),
        emisor: FISICA,
        receptor: MORAL,
        fecha: '2025-03-10T10:00:00',
        conceptos: [
          { descripcion: 'Honorarios', importe: 1000 },
          { descripcion: 'Honorarios', importe: 500 },
        ],
        retenciones: { isr: 0.1, iva: 0.106667 },
      }),
    );
    expect(cfdiFacts(cfdi).retenciones).toEqual([
      { impuesto: 'ISR', tasa: 0.1, base: 1500, importe: 100 + 50 },
      // 1000 × 0.106667 = 106.67, 500 × 0.106667 = 53.33.
      { impuesto: 'IVA', tasa: 0.106667, base: 1500, importe: 106.67 + 53.33 },
    ]);
  });

  it('Nómina 1.2 totals: perceptions gravadas/exentas, deductions, other payments, subsidio causado (OtroPago 002), ISR withheld, FechaPago', () => {
    const cfdi = parsed(
      payrollXml({
        uuid: newUuid(),
        emisor: MORAL,
        receptor: { ...FISICA, regimen: '605' },
        fecha: '2025-03-14T12:00:00',
        fechaPago: '2025-03-15',
        gravado: 8000,
        exento: 500,
        otras: 250,
        isr: 600,
        subsidio: { pagado: 0, causado: 200 },
      }),
    );
    expect(cfdiFacts(cfdi).nomina).toEqual({
      fechaPago: '2025-03-15',
      tipoNomina: 'O',
      totalPercepciones: 8000 + 500,
      percepcionesGravadas: 8000,
      percepcionesExentas: 500,
      totalDeducciones: 250 + 600,
      totalOtrosPagos: 0,
      subsidioCausado: 200,
      totalImpuestosRetenidos: 600,
    });
    expect(cfdi).toMatchObject({ tipoDeComprobante: 'N', total: 8000 + 500 - (250 + 600) });
  });

  const NOMINA_SAMPLE = new URL('../../../../shared/data/cfdi-samples/cfdi40-nomina.xml', import.meta.url);
  it.skipIf(!existsSync(NOMINA_SAMPLE))('the real Nómina sample: its complement totals', () => {
    const xml = readFileSync(NOMINA_SAMPLE, 'utf8').replace(
      '</cfdi:Complemento>',
      `<tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="1.1" UUID="${newUuid()}" FechaTimbrado="2026-04-28T13:30:00"/></cfdi:Complemento>`,
    );
    expect(cfdiFacts(parsed(xml)).nomina).toEqual({
      fechaPago: '2026-04-27',
      tipoNomina: 'O',
      totalPercepciones: 5186.1,
      percepcionesGravadas: 5186.1,
      percepcionesExentas: 0,
      totalDeducciones: 741.1,
      totalOtrosPagos: 0,
      subsidioCausado: 264.3,
      totalImpuestosRetenidos: 122.82,
    });
  });

  it('a REP in USD paying an MXN invoice: every DoctoRelacionado field an application keeps', () => {
    const invoice = newUuid();
    const rep = parsed(
      paymentXml({
        uuid: newUuid(),
        emisor: MORAL,
        receptor: FISICA,
        fecha: '2025-04-02T10:00:00',
        pagos: [
          {
            fechaPago: '2025-04-01T12:00:00',
            formaPago: '03',
            monedaP: 'USD',
            tipoCambioP: 20,
            doctos: [
              {
                uuid: invoice,
                monedaDR: 'MXN',
                equivalenciaDR: 20,
                numParcialidad: 2,
                impSaldoAnt: 1160,
                impPagado: 580,
                impSaldoInsoluto: 0,
              },
            ],
          },
        ],
      }),
    );
    expect(applicationsFrom(rep)).toEqual([
      expect.objectContaining({
        relatedUuid: invoice,
        fechaPago: '2025-04-01T12:00:00',
        formaPago: '03',
        monedaP: 'USD',
        tipoCambioP: 20,
        monedaDR: 'MXN',
        equivalenciaDR: 20,
        numParcialidad: 2,
        impSaldoAnt: 1160,
        impPagado: 580,
        // As stated, although 1160 − 580 = 580 (a defective REP keeps what it says).
        impSaldoInsoluto: 0,
      }),
    ]);
  });
});
