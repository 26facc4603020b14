// What parsePrintable reads for the Anexo 20 elements of a representación impresa (tax-rules §7):
// a REP's ImpuestosDR, ImpuestosP and Totales, the Nómina 1.2 complement, and the comprobante's
// InformacionGlobal, foreign receiver and ACuentaTerceros. Documents from the project's builder.
import { describe, expect, it } from 'vitest';
import { type PrintedCfdi, parsePrintable } from '../src';
import { invoiceXml, newUuid, nominaXml, type Party, paymentXml } from '../src/testing/generate';

const A: Party = { rfc: 'AAA010101AAA', nombre: 'Emisora', regimen: '601' };
const B: Party = { rfc: 'BBB010101BBB', nombre: 'Receptora', regimen: '601' };

function printable(xml: string): PrintedCfdi {
  const r = parsePrintable(xml);
  if (!r.ok) throw new Error(r.reason);
  return r.doc;
}

describe('parsePrintable: Anexo 20 elements', () => {
  it('Pagos 2.0: each document’s ObjetoImpDR and taxes, each Pago’s ImpuestosP, the Totales in MXN', () => {
    const p = printable(
      paymentXml({
        uuid: newUuid(),
        emisor: A,
        receptor: B,
        fecha: '2025-05-20T10:00:00',
        pagos: [
          {
            fechaPago: '2025-05-19T16:30:00',
            monedaP: 'USD',
            tipoCambioP: 17.5,
            doctos: [
              {
                uuid: newUuid(),
                numParcialidad: 1,
                impSaldoAnt: 580,
                impPagado: 580,
                impuestosDR: {
                  traslados: [{ base: 500, tasa: 0.16, importe: 80 }],
                  retenciones: [{ impuesto: '001', base: 500, tasa: 0.0125, importe: 6.25 }],
                },
              },
            ],
          },
        ],
      }),
    );
    const detalle = p.pagosDetalle!;
    expect(detalle.pagos[0]!.doctos[0]).toEqual({
      objetoImpDR: '02',
      traslados: [{ impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: 0.16, base: 500, importe: 80 }],
      retenciones: [{ impuesto: '001', tipoFactor: 'Tasa', tasaOCuota: 0.0125, base: 500, importe: 6.25 }],
    });
    expect(detalle.pagos[0]!.impuestosP).toEqual({
      traslados: [{ impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: 0.16, base: 500, importe: 80 }],
      retenciones: [{ impuesto: '001', importe: 6.25 }],
    });
    expect(detalle.totales).toEqual({
      MontoTotalPagos: 580 * 17.5, // 10,150.00 MXN
      TotalTrasladosBaseIVA16: 500 * 17.5, // 8,750.00
      TotalTrasladosImpuestoIVA16: 80 * 17.5, // 1,400.00
      TotalRetencionesISR: 109.38, // 6.25 × 17.50 = 109.375, written to the cent
    });
  });

  it('Nómina 1.2: payroll, employee, perceptions, deductions, other payments and totals', () => {
    const p = printable(
      nominaXml({
        uuid: newUuid(),
        emisor: A,
        receptor: { rfc: 'PEGJ800101AB1', nombre: 'Juana Pérez García', regimen: '605' },
        fecha: '2025-03-15T09:00:00',
        fechaPago: '2025-03-15',
        fechaInicialPago: '2025-03-01',
        fechaFinalPago: '2025-03-15',
        numDiasPagados: 15,
        registroPatronal: 'Y5412345106',
        empleado: {
          curp: 'PEGJ800101MDFRRN09',
          nss: '12345678901',
          numEmpleado: '0042',
          fechaInicioRelLaboral: '2020-01-06',
          antiguedad: 'P272W',
          periodicidadPago: '04',
          salarioBaseCotApor: 500,
          salarioDiarioIntegrado: 523.29,
        },
        percepciones: [{ tipo: '001', clave: '001', concepto: 'Sueldo', gravado: 7500, exento: 250 }],
        deducciones: [{ tipo: '002', clave: '002', concepto: 'ISR', importe: 812.34 }],
      }),
    );
    expect(p.cfdi.tipoDeComprobante).toBe('N');
    // 7,500.00 + 250.00 − 812.34 = 6,937.66
    expect(p.cfdi.total).toBe(6937.66);
    const [n] = p.nominas;
    expect(n).toMatchObject({
      tipoNomina: 'O',
      fechaPago: '2025-03-15',
      fechaInicialPago: '2025-03-01',
      fechaFinalPago: '2025-03-15',
      numDiasPagados: 15,
      registroPatronal: 'Y5412345106',
      totalPercepciones: 7750,
      totalDeducciones: 812.34,
      totalImpuestosRetenidos: 812.34,
      totalOtrasDeducciones: 0,
      totalGravado: 7500,
      totalExento: 250,
      empleado: {
        curp: 'PEGJ800101MDFRRN09',
        numSeguridadSocial: '12345678901',
        numEmpleado: '0042',
        antiguedad: 'P272W',
        periodicidadPago: '04',
        salarioBaseCotApor: 500,
        salarioDiarioIntegrado: 523.29,
      },
      percepciones: [
        {
          tipo: '001',
          clave: '001',
          concepto: 'Sueldo',
          importe: 7750,
          importeGravado: 7500,
          importeExento: 250,
        },
      ],
      deducciones: [{ tipo: '002', clave: '002', concepto: 'ISR', importe: 812.34 }],
      otrosPagos: [],
    });
  });

  it('InformacionGlobal, a foreign receiver, Exportacion, ObjetoImp and ACuentaTerceros', () => {
    const p = printable(
      invoiceXml({
        uuid: newUuid(),
        emisor: A,
        receptor: { rfc: 'XEXX010101000', nombre: 'Acme Imports LLC', regimen: '616' },
        fecha: '2025-04-03T10:00:00',
        conceptos: [
          {
            descripcion: 'Muebles',
            importe: 100,
            objetoImp: '03',
            aCuentaTerceros: {
              rfc: 'COSC8001137NA',
              nombre: 'Carlos',
              regimen: '612',
              domicilioFiscal: '01000',
            },
          },
        ],
        printed: {
          exportacion: '02',
          informacionGlobal: { periodicidad: '04', meses: '13', año: 2025 },
          receptorExtranjero: { residenciaFiscal: 'USA', numRegIdTrib: '121585958' },
        },
      }),
    );
    expect(p.exportacion).toBe('02');
    expect(p.informacionGlobal).toEqual({ periodicidad: '04', meses: '13', año: '2025' });
    expect([p.residenciaFiscal, p.numRegIdTrib]).toEqual(['USA', '121585958']);
    expect(p.conceptos[0]).toMatchObject({
      objetoImp: '03',
      traslados: [],
      aCuentaTerceros: {
        rfc: 'COSC8001137NA',
        nombre: 'Carlos',
        regimenFiscal: '612',
        domicilioFiscal: '01000',
      },
    });
    expect(p.nominas).toEqual([]);
    expect(p.pagosDetalle).toBeUndefined();
  });
});
