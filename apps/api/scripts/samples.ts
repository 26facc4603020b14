// pnpm samples — writes samples/cfdi: three months (July–September 2026) of one demo taxpayer's CFDI,
// built with the project's CFDI builder, plus one file refused on purpose (samples/cfdi/README.md).
// Deterministic: each UUID comes from the file's name, so a re-run rewrites the same bytes.
// `pnpm samples DIR` writes them to DIR instead (the test compares that with the committed folder).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { invoiceXml, nominaXml, type Party, paymentXml } from '@folio/cfdi/testing';
import { BAD_SAMPLE, DEMO_TAXPAYER, SAMPLES_DIR } from './demo-taxpayer';

const me: Party = { rfc: DEMO_TAXPAYER.rfc, nombre: DEMO_TAXPAYER.nombre, regimen: '626' };
// Clients: a company (withholds 1.25 % ISR and two thirds of the IVA from a RESICO person, LISR
// art. 113-J and LIVA art. 1-A) and a person in business (withholds nothing).
const bajio: Party = { rfc: 'CBA990315KT2', nombre: 'Comercial del Bajío', regimen: '601' };
const jorge: Party = { rfc: 'RASJ780621HB5', nombre: 'Jorge Ramírez Soto', regimen: '612' };
// Suppliers and the employee.
const telecom: Party = { rfc: 'TCE010203JA1', nombre: 'Telecomunicaciones del Centro', regimen: '601' };
const computo: Party = { rfc: 'CEX120415PQ0', nombre: 'Cómputo Express', regimen: '601' };
const software: Party = { rfc: 'SCR150807MN4', nombre: 'Software Creativo', regimen: '601' };
const lucia = {
  rfc: 'PEGL950101AB2',
  nombre: 'Lucía Pérez Gómez',
  regimen: '605',
  curp: 'PEGL950101MDFRML09',
};
const RESICO_RETENTIONS = { isr: 0.0125, iva: 0.106667 };

/** A UUID derived from the file name (upper-case, version 4 layout). */
function uuidOf(name: string): string {
  const h = createHash('sha256').update(`folio-samples:${name}`).digest('hex').toUpperCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-A${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const files: Array<[name: string, xml: (uuid: string) => string]> = [];
const add = (name: string, xml: (uuid: string) => string) => {
  files.push([name, xml]);
  return uuidOf(name);
};

// July: two invoices paid at once (PUE), then a discount on the second (credit note, related 01).
add('2026-07-05-ingreso-pue-comercial-del-bajio.xml', (uuid) =>
  invoiceXml({
    uuid,
    serie: 'A',
    folio: '101',
    emisor: me,
    receptor: bajio,
    fecha: '2026-07-05T10:00:00',
    conceptos: [
      { descripcion: 'Diseño de identidad corporativa', importe: 12_000, claveProdServ: '82141502' },
    ],
    retenciones: RESICO_RETENTIONS,
  }),
);
const web = add('2026-07-20-ingreso-pue-jorge-ramirez.xml', (uuid) =>
  invoiceXml({
    uuid,
    serie: 'A',
    folio: '102',
    emisor: me,
    receptor: jorge,
    fecha: '2026-07-20T12:30:00',
    conceptos: [{ descripcion: 'Diseño de página web', importe: 8_000, claveProdServ: '82141505' }],
  }),
);
add('2026-07-28-nota-de-credito-jorge-ramirez.xml', (uuid) =>
  invoiceXml({
    uuid,
    serie: 'NC',
    folio: '1',
    emisor: me,
    receptor: jorge,
    fecha: '2026-07-28T09:15:00',
    tipoDeComprobante: 'E',
    usoCfdi: 'G02',
    conceptos: [{ descripcion: 'Descuento por pronto pago', importe: 800, claveProdServ: '82141505' }],
    relacionados: [{ tipoRelacion: '01', uuids: [web] }],
  }),
);
add('2026-07-10-gasto-internet-julio.xml', (uuid) =>
  invoiceXml({
    uuid,
    emisor: telecom,
    receptor: me,
    fecha: '2026-07-10T08:00:00',
    folio: '7781',
    conceptos: [{ descripcion: 'Servicio de internet, julio', importe: 500, claveProdServ: '81112101' }],
  }),
);

// August: a campaign invoiced up front and paid in two parts (PPD + payment complements).
const campaign = add('2026-08-03-ingreso-ppd-jorge-ramirez.xml', (uuid) =>
  invoiceXml({
    uuid,
    serie: 'A',
    folio: '103',
    emisor: me,
    receptor: jorge,
    fecha: '2026-08-03T11:00:00',
    metodoPago: 'PPD',
    conceptos: [
      { descripcion: 'Campaña en redes sociales (3 meses)', importe: 24_000, claveProdServ: '80141600' },
    ],
  }),
);
// Half of 27,840.00 (24,000 + 16 % IVA) each time: 13,920.00, of which 12,000.00 base and 1,920.00 IVA.
const half = { traslados: [{ base: 12_000, tasa: 0.16, importe: 1_920 }] };
add('2026-08-31-pago-1-de-2-jorge-ramirez.xml', (uuid) =>
  paymentXml({
    uuid,
    emisor: me,
    receptor: jorge,
    fecha: '2026-08-31T18:00:00',
    pagos: [
      {
        fechaPago: '2026-08-31T12:00:00',
        doctos: [
          { uuid: campaign, numParcialidad: 1, impSaldoAnt: 27_840, impPagado: 13_920, impuestosDR: half },
        ],
      },
    ],
  }),
);
add('2026-08-10-gasto-internet-agosto.xml', (uuid) =>
  invoiceXml({
    uuid,
    emisor: telecom,
    receptor: me,
    fecha: '2026-08-10T08:00:00',
    folio: '8214',
    conceptos: [{ descripcion: 'Servicio de internet, agosto', importe: 500, claveProdServ: '81112101' }],
  }),
);
add('2026-08-18-gasto-laptop.xml', (uuid) =>
  invoiceXml({
    uuid,
    emisor: computo,
    receptor: me,
    fecha: '2026-08-18T16:45:00',
    folio: '5520',
    conceptos: [{ descripcion: 'Laptop para diseño', importe: 22_000, claveProdServ: '43211503' }],
  }),
);

// September: the campaign's second payment, another company invoice, software, and the assistant's pay.
add('2026-09-30-pago-2-de-2-jorge-ramirez.xml', (uuid) =>
  paymentXml({
    uuid,
    emisor: me,
    receptor: jorge,
    fecha: '2026-09-30T18:00:00',
    pagos: [
      {
        fechaPago: '2026-09-30T12:00:00',
        doctos: [
          { uuid: campaign, numParcialidad: 2, impSaldoAnt: 13_920, impPagado: 13_920, impuestosDR: half },
        ],
      },
    ],
  }),
);
add('2026-09-15-ingreso-pue-comercial-del-bajio.xml', (uuid) =>
  invoiceXml({
    uuid,
    serie: 'A',
    folio: '104',
    emisor: me,
    receptor: bajio,
    fecha: '2026-09-15T10:30:00',
    conceptos: [{ descripcion: 'Ilustraciones para catálogo', importe: 10_000, claveProdServ: '82141500' }],
    retenciones: RESICO_RETENTIONS,
  }),
);
add('2026-09-05-gasto-software-de-diseno.xml', (uuid) =>
  invoiceXml({
    uuid,
    emisor: software,
    receptor: me,
    fecha: '2026-09-05T09:00:00',
    folio: '3301',
    conceptos: [
      { descripcion: 'Licencia anual de software de diseño', importe: 6_000, claveProdServ: '43232102' },
    ],
  }),
);
add('2026-09-30-nomina-asistente.xml', (uuid) =>
  nominaXml({
    uuid,
    emisor: me,
    receptor: lucia,
    fecha: '2026-09-30T19:00:00',
    fechaPago: '2026-09-30',
    fechaInicialPago: '2026-09-01',
    fechaFinalPago: '2026-09-30',
    numDiasPagados: 30,
    registroPatronal: 'B5510768108',
    empleado: {
      curp: lucia.curp,
      nss: '04048512345',
      numEmpleado: '1',
      puesto: 'Asistente',
      fechaInicioRelLaboral: '2025-03-01',
      antiguedad: 'P82W',
      periodicidadPago: '05',
      salarioBaseCotApor: 420,
      salarioDiarioIntegrado: 420,
    },
    percepciones: [{ tipo: '001', clave: '001', concepto: 'Sueldo', gravado: 12_000, exento: 0 }],
    deducciones: [
      { tipo: '001', clave: '001', concepto: 'Seguridad social', importe: 300 },
      { tipo: '002', clave: '002', concepto: 'ISR', importe: 1_100 },
    ],
  }),
);
// Refused on purpose: the supplier's draft, sent before it was stamped (no TimbreFiscalDigital).
add(BAD_SAMPLE, (uuid) =>
  invoiceXml({
    uuid,
    emisor: telecom,
    receptor: me,
    fecha: '2026-09-20T08:00:00',
    folio: '9001',
    conceptos: [{ descripcion: 'Equipo de red (borrador)', importe: 1_500, claveProdServ: '81112101' }],
  }).replace(/<cfdi:Complemento>.*<\/cfdi:Complemento>/s, ''),
);

const out = process.argv[2] ?? SAMPLES_DIR;
mkdirSync(out, { recursive: true });
for (const old of readdirSync(out).filter((f) => f.endsWith('.xml'))) rmSync(join(out, old));
for (const [name, xml] of files) writeFileSync(join(out, name), `${xml(uuidOf(name))}\n`, 'utf8');
console.log(`samples: ${files.length} CFDI written to ${out}`);
