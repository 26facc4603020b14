// The printed CFDI carries what Anexo 20 puts on a representación impresa (tax-rules §7, issue 24):
// the legend, ObjetoImp of every concept, RfcProvCertif, related UUIDs with TipoRelacion's
// description, InformacionGlobal, ACuentaTerceros, a foreign receiver's ResidenciaFiscal and
// NumRegIdTrib, Exportacion with its description; a payment complement's FormaDePagoP,
// MonedaP/TipoCambioP, per document its installment, balances, EquivalenciaDR, ObjetoImpDR and
// ImpuestosDR, each payment's ImpuestosP and the Totales; and the Nómina 1.2 complement. Read back
// as a person's tools read it (pdftotext).
import { invoiceXml, newUuid, nominaXml, type Party, paymentXml } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imported } from './cfdi-helpers';
import {
  bearer,
  createProfile,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';
import { hasPoppler, pdfText } from './support/poppler';

const OWNER: Party = { rfc: 'Ñ&A970701AB1', nombre: 'Ñandú & Asociados, S.A. de C.V.', regimen: '601' };
const CLIENT: Party = { rfc: 'PEÑ970701AB2', nombre: 'Peña Gutiérrez & Hijos', regimen: '601' };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

async function owner() {
  const u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  const p = await createProfile(t, u, { nombre: OWNER.nombre, rfc: OWNER.rfc, tipo_persona: 'MORAL' });
  return { u, p };
}

async function printed(u: TestUser, id: string): Promise<string> {
  const res = await request(t, 'GET', `/api/invoices/${id}/pdf`, { headers: bearer(u.token) });
  expect(res.status, res.status === 200 ? '' : await res.clone().text()).toBe(200);
  return pdfText(new Uint8Array(await res.arrayBuffer()));
}

// A UUID near the end of a line wraps at one of its hyphens (pdftotext then reads "3C662229- E1C4…"):
// read as a person does, the hyphen joins the two halves again.
const expectShown = (text: string, shown: string[]) => {
  const read = text.replace(/([0-9A-F])-\s+([0-9A-F])/g, '$1-$2');
  for (const s of shown) expect(read, s).toContain(s);
};

describe.skipIf(!hasPoppler)('the printed CFDI shows the Anexo 20 elements (tax-rules §7)', () => {
  it('a factura global: legend, ObjetoImp 01/02 with description, RfcProvCertif, relation 04 described, InformacionGlobal, ACuentaTerceros', async () => {
    const { u, p } = await owner();
    const replaced = newUuid();
    const uuid = newUuid();
    const id = await imported(
      t,
      u,
      p.id,
      invoiceXml({
        uuid,
        emisor: OWNER,
        receptor: { rfc: 'XAXX010101000', nombre: 'PUBLICO EN GENERAL', regimen: '616' },
        fecha: '2025-04-02T10:00:00',
        relacionados: [{ tipoRelacion: '04', uuids: [replaced] }],
        conceptos: [
          {
            descripcion: 'Ventas de marzo',
            importe: 1000,
            aCuentaTerceros: {
              rfc: 'COSC8001137NA',
              nombre: 'Carlos Cortés Soto',
              regimen: '612',
              domicilioFiscal: '01000',
            },
          },
          { descripcion: 'Cuotas no objeto', importe: 500, objetoImp: '01' },
        ],
        printed: { informacionGlobal: { periodicidad: '04', meses: '03', año: 2025 } },
      }),
    );
    const text = await printed(u, id);
    expectShown(text, [
      'Este documento es una representación impresa de un CFDI',
      'RFC del proveedor de certificación: SAT970701NN3',
      `Tipo de relación 04 Sustitución de los CFDI previos: ${replaced}`,
      'Información global',
      'Periodicidad: 04 Mensual',
      'Meses: 03 Marzo',
      'Año: 2025',
      // Taxed concept: IVA 16 % of 1,000.00 = 160.00, then its ObjetoImp.
      'Ventas de marzo A cuenta de terceros: COSC8001137NA, Carlos Cortés Soto, 612 Personas Físicas con Actividades Empresariales y Profesionales, C.P. 01000',
      'IVA 16% 160.00 ObjetoImp 02 Sí objeto de impuesto',
      'Cuotas no objeto 500.00 500.00 ObjetoImp 01 No objeto de impuesto',
      // 1,000.00 + 500.00 = 1,500.00; + 160.00 of IVA on the taxed one only = 1,660.00.
      'Subtotal 1,500.00',
      'Total MXN 1,660.00',
    ]);
  });

  it('an export to a foreign receiver: ResidenciaFiscal, NumRegIdTrib, Exportación 02 with its description', async () => {
    const { u, p } = await owner();
    const id = await imported(
      t,
      u,
      p.id,
      invoiceXml({
        uuid: newUuid(),
        emisor: OWNER,
        receptor: { rfc: 'XEXX010101000', nombre: 'Acme Imports LLC', regimen: '616' },
        fecha: '2025-04-03T10:00:00',
        conceptos: [{ descripcion: 'Muebles de madera', importe: 2000, ivaRate: 0 }],
        printed: {
          exportacion: '02',
          receptorExtranjero: { residenciaFiscal: 'USA', numRegIdTrib: '121585958' },
        },
      }),
    );
    expectShown(await printed(u, id), [
      'Residencia fiscal: USA',
      'NumRegIdTrib: 121585958',
      'Exportación: 02 Definitiva con clave A1',
      'IVA 0% 0.00 ObjetoImp 02 Sí objeto de impuesto',
    ]);
  });

  it('a payment complement: FormaDePagoP, MonedaP/TipoCambioP, installments and balances, ObjetoImpDR and ImpuestosDR, ImpuestosP, Totales in MXN', async () => {
    const { u, p } = await owner();
    const mxn = newUuid();
    const usd = newUuid();
    await imported(
      t,
      u,
      p.id,
      invoiceXml({
        uuid: mxn,
        emisor: OWNER,
        receptor: CLIENT,
        fecha: '2025-05-01T10:00:00',
        metodoPago: 'PPD',
      }),
    );
    await imported(
      t,
      u,
      p.id,
      invoiceXml({
        uuid: usd,
        emisor: OWNER,
        receptor: CLIENT,
        fecha: '2025-05-02T10:00:00',
        metodoPago: 'PPD',
        moneda: 'USD',
        tipoCambio: 17.5,
        conceptos: [{ descripcion: 'Licencia anual', importe: 500 }],
      }),
    );
    const id = await imported(
      t,
      u,
      p.id,
      paymentXml({
        uuid: newUuid(),
        emisor: OWNER,
        receptor: CLIENT,
        fecha: '2025-05-20T10:00:00',
        pagos: [
          {
            // 1,000.00 + 16 % = 1,160.00, paid whole.
            fechaPago: '2025-05-10T11:00:00',
            doctos: [
              {
                uuid: mxn,
                numParcialidad: 1,
                impSaldoAnt: 1160,
                impPagado: 1160,
                impuestosDR: { traslados: [{ base: 1000, tasa: 0.16, importe: 160 }] },
              },
            ],
          },
          {
            // US$500.00 + 16 % = US$580.00, paid in dollars at 17.50, second installment of two.
            fechaPago: '2025-05-19T16:30:00',
            formaPago: '02',
            monedaP: 'USD',
            tipoCambioP: 17.5,
            doctos: [
              {
                uuid: usd,
                numParcialidad: 2,
                impSaldoAnt: 580,
                impPagado: 580,
                impuestosDR: { traslados: [{ base: 500, tasa: 0.16, importe: 80 }] },
              },
            ],
          },
        ],
      }),
    );
    const text = await printed(u, id);
    expectShown(text, [
      'Pago 1 de 2',
      'Forma de pago: 03 Transferencia electrónica de fondos',
      'Moneda: MXN',
      `${mxn} MXN 1 1 1,160.00 1,160.00 0.00`,
      'Impuestos de los documentos del pago 1 (ImpuestosDR)',
      `${mxn} 02 Sí objeto de impuesto Traslado IVA Tasa 16% 1,000.00 160.00`,
      'Impuestos del pago 1 (ImpuestosP)',
      'Pago 2 de 2',
      'Forma de pago: 02 Cheque nominativo',
      'Moneda: USD',
      'Tipo de cambio: 17.5',
      `${usd} USD 1 2 580.00 580.00 0.00`,
      `${usd} 02 Sí objeto de impuesto Traslado IVA Tasa 16% 500.00 80.00`,
      'Impuestos del pago 2 (ImpuestosP)',
      'Traslado IVA Tasa 16% 500.00 80.00',
      'Totales de los pagos (MXN)',
      // In MXN: 1,160.00 × 1 + 580.00 × 17.50 = 1,160.00 + 10,150.00 = 11,310.00.
      'Monto total de pagos: 11,310.00',
      // Bases 1,000.00 + 500.00 × 17.50 = 9,750.00; IVA 160.00 + 80.00 × 17.50 = 1,560.00.
      'Base IVA 16%: 9,750.00',
      'IVA 16%: 1,560.00',
    ]);
    // Pago 1's own ImpuestosP line (between its title and Pago 2).
    const pago1 = text.slice(text.indexOf('Impuestos del pago 1 (ImpuestosP)'), text.indexOf('Pago 2 de 2'));
    expect(pago1).toContain('Traslado IVA Tasa 16% 1,000.00 160.00');
  });

  it('a CFDI de nómina: the Nómina 1.2 complement with employee, CURP, NSS, period, days, SDI, perceptions, deductions, other payments, registro patronal', async () => {
    const { u, p } = await owner();
    const id = await imported(
      t,
      u,
      p.id,
      nominaXml({
        uuid: newUuid(),
        emisor: OWNER,
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
          puesto: 'Contadora',
          departamento: 'Finanzas',
          fechaInicioRelLaboral: '2020-01-06',
          antiguedad: 'P272W',
          periodicidadPago: '04',
          salarioBaseCotApor: 500,
          salarioDiarioIntegrado: 523.29,
        },
        percepciones: [
          { tipo: '001', clave: '001', concepto: 'Sueldo', gravado: 7500, exento: 0 },
          { tipo: '019', clave: '019', concepto: 'Horas extra', gravado: 300, exento: 300 },
        ],
        deducciones: [
          { tipo: '002', clave: '002', concepto: 'ISR', importe: 812.34 },
          { tipo: '001', clave: '001', concepto: 'Seguridad social', importe: 210.5 },
        ],
        otrosPagos: [
          { tipo: '002', clave: '002', concepto: 'Subsidio para el empleo', importe: 0, subsidioCausado: 0 },
        ],
      }),
    );
    expectShown(await printed(u, id), [
      'Comprobante N Nómina',
      'Complemento de nómina 1.2',
      'Tipo de nómina: O Ordinaria',
      'Fecha de pago: 2025-03-15',
      'Periodo: 2025-03-01 a 2025-03-15',
      'Días pagados: 15',
      'Registro patronal: Y5412345106',
      'Empleado: Juana Pérez García (núm. 0042)',
      'CURP: PEGJ800101MDFRRN09',
      'NSS: 12345678901',
      'Puesto: Contadora · Finanzas',
      'Periodicidad de pago: 04 Quincenal',
      'Salario diario integrado (SDI): 523.29',
      'Tipo Clave Percepción Gravado Exento',
      '001 001 Sueldo 7,500.00 0.00',
      '019 019 Horas extra 300.00 300.00',
      '002 002 ISR 812.34',
      '001 001 Seguridad social 210.50',
      '002 002 Subsidio para el empleo 0.00',
      // Perceptions 7,500.00 + 300.00 + 300.00 = 8,100.00 (gravado 7,800.00, exento 300.00).
      'Total percepciones: 8,100.00',
      'Total gravado: 7,800.00',
      'Total exento: 300.00',
      // Deductions 812.34 + 210.50 = 1,022.84, of which ISR 812.34.
      'Total deducciones: 1,022.84',
      'Total impuestos retenidos: 812.34',
      // Paid: 8,100.00 − 1,022.84 = 7,077.16.
      'Total MXN 7,077.16',
    ]);
  });
});
