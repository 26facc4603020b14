// GET /api/invoices/{id}/pdf (plan-features §2): the printed representation read back the way a
// person's tools read it (pdftotext, pdfinfo, pdftoppm and a QR decoder), on generated documents and
// real samples; plan gating both ways and after a downgrade through the dev billing portal. The first
// page of the sample invoice is kept in test-output/invoice-pdf/ for a person to look at.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { invoiceTotal, invoiceXml, newUuid, type Party, paymentXml } from '@folio/cfdi/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelNowInPortal, subscribe } from './billing-helpers';
import { imported } from './cfdi-helpers';
import {
  bearer,
  createProfile,
  expectError,
  request,
  setPlan,
  signUp,
  signUpVerified,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';
import { haveSamples, sample } from './samples';
import { hasPoppler, pageImage, pdfPages, pdfText, qrOf } from './support/poppler';

const OUT = fileURLToPath(new URL('../test-output/invoice-pdf/', import.meta.url));
const VERIFY = 'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  mkdirSync(OUT, { recursive: true });
});
afterAll(() => t?.close());

/** An issuer whose RFC and name hold Ñ and &: the QR, the text and the file name must keep both. */
const OWNER: Party = { rfc: 'Ñ&A970701AB1', nombre: 'Ñandú & Asociados, S.A. de C.V.', regimen: '601' };
const CLIENT: Party = { rfc: 'PEÑ970701AB2', nombre: 'Peña Gutiérrez & Hijos', regimen: '601' };
/** A real seal's shape: 344 base64 characters whose last 8 hold `+` and `/`. */
const SELLO = `${'Q'.repeat(336)}q+Zb/7w=`;

/** The generator's placeholder seals replaced by SELLO (the timbre's SelloCFD is the CFDI's Sello). */
const sealed = (xml: string) =>
  xml.replace(' Sello="x"', ` Sello="${SELLO}"`).replace('SelloCFD="x"', `SelloCFD="${SELLO}"`);

async function owner(plan: 'BASIC' | 'PRO' | null = 'PRO', party = OWNER) {
  const u = await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  const p = await createProfile(t, u, {
    nombre: party.nombre,
    rfc: party.rfc,
    tipo_persona: 'MORAL',
    regimenes_fiscales: ['601'],
  });
  return { u, p };
}

const pdfOf = (u: TestUser, id: string) =>
  request(t, 'GET', `/api/invoices/${id}/pdf`, { headers: bearer(u.token) });

async function downloaded(u: TestUser, id: string): Promise<{ res: Response; pdf: Uint8Array }> {
  const res = await pdfOf(u, id);
  expect(res.status, res.status === 200 ? '' : await res.clone().text()).toBe(200);
  const pdf = new Uint8Array(await res.arrayBuffer());
  expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');
  return { res, pdf };
}

const CONCEPTOS = [
  { descripcion: 'Servicio de consultoría en diseño — año 2025', importe: 1000, claveProdServ: '80101500' },
  {
    descripcion: 'Reparación de máquina de café, pieza “Ñuñoa” & ajuste',
    importe: 250.5,
    claveProdServ: '72154000',
  },
  { descripcion: 'Envío a Querétaro', importe: 7, claveProdServ: '78102200' },
];

describe.skipIf(!hasPoppler)('GET /api/invoices/{id}/pdf, read back with poppler', () => {
  it('shows every element of the printed representation, accents and Ñ intact, QR = the SAT verification URL', async () => {
    const { u, p } = await owner();
    const uuid = newUuid();
    const id = await imported(
      t,
      u,
      p.id,
      sealed(
        invoiceXml({
          uuid,
          emisor: OWNER,
          receptor: CLIENT,
          fecha: '2025-03-10T09:15:00',
          conceptos: CONCEPTOS,
        }),
      ),
    );
    expect(invoiceTotal({ conceptos: CONCEPTOS })).toBeCloseTo(1458.7, 6);
    const { res, pdf } = await downloaded(u, id);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="N&A970701AB1-A-1-${uuid}.pdf"; filename*=UTF-8''%C3%91%26A970701AB1-A-1-${uuid}.pdf`,
    );

    const text = pdfText(pdf);
    for (const shown of [
      // parties: RFC, name, regime, CP
      OWNER.rfc,
      OWNER.nombre,
      '601 General de Ley Personas Morales',
      'Lugar de expedición (C.P.): 06000',
      CLIENT.rfc,
      CLIENT.nombre,
      'Domicilio fiscal (C.P.): 06000',
      // identity, date and place, use, payment, currency
      `Folio fiscal (UUID) ${uuid}`,
      'Serie y folio A 1',
      'Fecha de emisión 2025-03-10T09:15:00',
      'Uso del CFDI: G03 Gastos en general',
      'Método de pago: PUE Pago en una sola exhibición',
      'Forma de pago: 03 Transferencia electrónica de fondos',
      'Moneda: MXN',
      // concepts with their taxes, totals, amount in words
      'Clave SAT Cantidad Unidad Descripción Valor unitario Importe Impuestos',
      ...CONCEPTOS.map((c) => c.descripcion),
      '72154000 1 E48 Reparación',
      'IVA 16% 40.08',
      'Subtotal 1,257.50',
      'Traslado IVA 16% 201.20',
      'Total MXN 1,458.70',
      'MIL CUATROCIENTOS CINCUENTA Y OCHO PESOS 70/100 M.N.',
      // stamp data
      'No. de serie del certificado del emisor: 30001000000400002495',
      'No. de serie del certificado del SAT: 30001000000400002495',
      'Fecha y hora de certificación: 2025-03-10T09:15:00',
      'RFC del proveedor de certificación: SAT970701NN3',
      'Sello digital del CFDI',
      'Sello digital del SAT',
      'Página 1 de 1',
    ]) {
      expect(text, shown).toContain(shown);
    }
    // Seals and the cadena original wrap at any character; read them without the line breaks.
    const joined = text.replace(/\s/g, '');
    expect(joined).toContain(SELLO);
    expect(joined).toContain(
      `||1.1|${uuid}|2025-03-10T09:15:00|SAT970701NN3|${SELLO}|30001000000400002495||`,
    );

    const png = pageImage(pdf, 1);
    writeFileSync(`${OUT}factura-pagina-1.png`, png);
    expect(qrOf(png)).toBe(
      `${VERIFY}?id=${uuid}&re=%C3%91%26A970701AB1&rr=PE%C3%91970701AB2&tt=1458.7&fe=q%2BZb/7w=`,
    );
  });

  it('a document whose concepts fill more than a page continues on numbered pages, the table header repeated', async () => {
    const { u, p } = await owner();
    const uuid = newUuid();
    const conceptos = Array.from({ length: 70 }, (_, i) => ({
      descripcion: `Partida ${i + 1}: instalación eléctrica en el almacén de Peñón de los Baños, nivel ${i % 4}`,
      importe: 100 + i,
    }));
    const id = await imported(
      t,
      u,
      p.id,
      sealed(invoiceXml({ uuid, emisor: OWNER, receptor: CLIENT, fecha: '2025-04-01T12:00:00', conceptos })),
    );
    const { pdf } = await downloaded(u, id);
    const pages = pdfPages(pdf);
    expect(pages).toBeGreaterThanOrEqual(2);
    const text = pdfText(pdf);
    for (const c of conceptos) expect(text).toContain(c.descripcion);
    for (let n = 1; n <= pages; n++) expect(text).toContain(`Página ${n} de ${pages}`);
    const headers =
      text.split('Clave SAT Cantidad Unidad Descripción Valor unitario Importe Impuestos').length - 1;
    expect(headers).toBeGreaterThanOrEqual(2);
    // 70 × (100..169) = 9,415 + IVA 1,506.40 = 10,921.40
    expect(text).toContain('Total MXN 10,921.40');
    expect(text).toContain('DIEZ MIL NOVECIENTOS VEINTIÚN PESOS 40/100 M.N.');
    // The stamp closes the document: its QR is on the last page.
    expect(qrOf(pageImage(pdf, pages))).toBe(
      `${VERIFY}?id=${uuid}&re=%C3%91%26A970701AB1&rr=PE%C3%91970701AB2&tt=10921.4&fe=q%2BZb/7w=`,
    );
  });

  it('a payment complement shows each payment and the documents it pays', async () => {
    const { u, p } = await owner();
    const paid = [newUuid(), newUuid()];
    for (const uuid of paid) {
      await imported(
        t,
        u,
        p.id,
        invoiceXml({
          uuid,
          emisor: OWNER,
          receptor: CLIENT,
          fecha: '2025-05-01T10:00:00',
          metodoPago: 'PPD',
        }),
      );
    }
    const uuid = newUuid();
    const id = await imported(
      t,
      u,
      p.id,
      paymentXml({
        uuid,
        emisor: OWNER,
        receptor: CLIENT,
        fecha: '2025-05-20T10:00:00',
        pagos: [
          {
            fechaPago: '2025-05-10T11:00:00',
            doctos: [{ uuid: paid[0]!, numParcialidad: 1, impSaldoAnt: 1160, impPagado: 500 }],
          },
          {
            fechaPago: '2025-05-19T16:30:00',
            formaPago: '02',
            doctos: [
              { uuid: paid[0]!, numParcialidad: 2, impSaldoAnt: 660, impPagado: 660 },
              { uuid: paid[1]!, numParcialidad: 1, impSaldoAnt: 1160, impPagado: 1160 },
            ],
          },
        ],
      }),
    );
    const text = pdfText((await downloaded(u, id)).pdf);
    for (const shown of [
      'P Pago',
      'Uso del CFDI: CP01 Pagos',
      'Pago 1 de 2',
      'Fecha de pago: 2025-05-10T11:00:00',
      'Monto: 500.00',
      'Pago 2 de 2',
      'Fecha de pago: 2025-05-19T16:30:00',
      'Forma de pago: 02 Cheque nominativo',
      'Monto: 1,820.00',
      'Documento relacionado (UUID) Moneda Equivalencia Parcialidad Saldo anterior Importe pagado Saldo insoluto',
      `${paid[0]} MXN 1 1 1,160.00 500.00 660.00`,
      `${paid[0]} MXN 1 2 660.00 660.00 0.00`,
      `${paid[1]} MXN 1 1 1,160.00 1,160.00 0.00`,
    ]) {
      expect(text, shown).toContain(shown);
    }
  });

  it('an expense (a received CFDI) prints too, by the id the expense listing gives', async () => {
    const { u, p } = await owner();
    const uuid = newUuid();
    await imported(
      t,
      u,
      p.id,
      invoiceXml({ uuid, emisor: CLIENT, receptor: OWNER, fecha: '2025-06-02T08:00:00' }),
    );
    const listed = await (
      await request(t, 'GET', `/api/expenses?profileId=${p.id}`, { headers: bearer(u.token) })
    ).json();
    const expense = listed.data.find((e: { uuid?: string }) => e.uuid === uuid);
    const text = pdfText((await downloaded(u, expense.id)).pdf);
    expect(text).toContain(`Folio fiscal (UUID) ${uuid}`);
    expect(text).toContain(CLIENT.nombre);
    expect(text).toContain('MIL CIENTO SESENTA PESOS 00/100 M.N.');
  });
});

describe.skipIf(!hasPoppler || !haveSamples)('real samples', () => {
  it('an invoice whose issuer RFC holds & and its payment complement: text, QR with & encoded, related UUID', async () => {
    const { u, p } = await owner('PRO', { rfc: 'H&E951128469', nombre: 'Herrería', regimen: '601' });
    const invoiceId = await imported(t, u, p.id, sample('cfdi40-ingreso-ppd-rfc-ampersand.xml').toString());
    const { pdf } = await downloaded(u, invoiceId);
    const text = pdfText(pdf);
    for (const shown of [
      '6D7434A6-E3F2-47AD-9E4C-08849946AFA0',
      'H&E951128469',
      'HERRERIA & ELECTRICOS S DE CV',
      'KIJ0906199R1',
      'RENTA DEL MES DE ENERO 2020',
      'Método de pago: PPD Pago en parcialidades o diferido',
      'Total MXN 17,852.75',
      'DIECISIETE MIL OCHOCIENTOS CINCUENTA Y DOS PESOS 75/100 M.N.',
    ]) {
      expect(text, shown).toContain(shown);
    }
    expect(qrOf(pageImage(pdf, 1))).toBe(
      `${VERIFY}?id=6D7434A6-E3F2-47AD-9E4C-08849946AFA0&re=H%26E951128469&rr=KIJ0906199R1&tt=17852.75&fe=MNGSxg==`,
    );

    const paymentId = await imported(
      t,
      u,
      p.id,
      sample('cfdi40-pago20-liquida-ppd-rfc-ampersand.xml').toString(),
    );
    const payment = pdfText((await downloaded(u, paymentId)).pdf);
    for (const shown of [
      '5B64ADA3-AA4C-40B4-A2F5-572CED52BE31',
      'Fecha de pago: 2020-01-02T22:40:38',
      'Forma de pago: 03 Transferencia electrónica de fondos',
      'Monto: 17,852.75',
      '6D7434A6-E3F2-47AD-9E4C-08849946AFA0 MXN 1 1 17,852.75 17,852.75 0.00',
    ]) {
      expect(payment, shown).toContain(shown);
    }
  });
});

describe.skipIf(!hasPoppler || !haveSamples)('withholdings (real sample)', () => {
  it('each concept’s withholdings, the totals by tax with ISR and IVA withheld, the net total in words', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'BASIC');
    const p = await createProfile(t, u, {
      nombre: 'Berenice Ximo Quezada',
      rfc: 'XIQB891116QE4',
      tipo_persona: 'FISICA',
      regimenes_fiscales: ['612'],
    });
    const id = await imported(t, u, p.id, sample('cfdi40-ingreso-ppd-retenciones-isr-iva.xml').toString());
    const text = pdfText((await downloaded(u, id)).pdf);
    for (const shown of [
      'SERVICIOS DE FACTURACION',
      '10101702 1 E48 SERVICIOS DE FACTURACION 15,390.30 15,390.30 IVA 16% 2,462.45 Ret. ISR 10% 1,539.03 Ret. IVA 10.6667% 1,641.64',
      'Subtotal 15,390.30',
      'Traslado IVA 16% 2,462.45',
      'Retención ISR 1,539.03',
      'Retención IVA 1,641.64',
      'Total MXN 14,672.08',
      'CATORCE MIL SEISCIENTOS SETENTA Y DOS PESOS 08/100 M.N.',
    ]) {
      expect(text, shown).toContain(shown);
    }
  });
});

describe('plan gating (exportPDF) and ownership', () => {
  async function invoiceOf(plan: 'BASIC' | 'PRO' | null) {
    const { u, p } = await owner(plan);
    const id = await imported(
      t,
      u,
      p.id,
      invoiceXml({ uuid: newUuid(), emisor: OWNER, receptor: CLIENT, fecha: '2025-03-01T10:00:00' }),
    );
    return { u, id };
  }

  it('FREE: 403 naming the plans that include PDF export', async () => {
    const { u, id } = await invoiceOf(null);
    const res = await pdfOf(u, id);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: 'Forbidden',
      message:
        'PDF export requires the BASIC or PRO plan; upgrade with POST /api/subscription/create-checkout',
      code: 'plan_required',
    });
  });

  it.each(['BASIC', 'PRO'] as const)('%s: 200, a PDF', async (plan) => {
    const { u, id } = await invoiceOf(plan);
    const res = await pdfOf(u, id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
  });

  it('a downgrade through the billing portal switches PDF export off at once', async () => {
    const u = await signUpVerified(t);
    await subscribe(t, u, { plan: 'BASIC' });
    const p = await createProfile(t, u, { nombre: OWNER.nombre, rfc: OWNER.rfc, tipo_persona: 'MORAL' });
    const id = await imported(
      t,
      u,
      p.id,
      invoiceXml({ uuid: newUuid(), emisor: OWNER, receptor: CLIENT, fecha: '2025-03-01T10:00:00' }),
    );
    expect((await pdfOf(u, id)).status).toBe(200);

    await cancelNowInPortal(t, u);
    expect(await expectError(await pdfOf(u, id), 403, 'Forbidden')).toBe(
      'PDF export requires the BASIC or PRO plan; upgrade with POST /api/subscription/create-checkout',
    );
  });

  it('a document that does not exist → 404; another user’s → 403 (as its XML), never a byte of it', async () => {
    const { id } = await invoiceOf('PRO');
    const { u: other } = await owner('PRO', CLIENT);
    await expectError(await pdfOf(other, crypto.randomUUID()), 404, 'Not Found');
    const res = await pdfOf(other, id);
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(
      (await request(t, 'GET', `/api/invoices/${id}/xml`, { headers: bearer(other.token) })).status,
    ).toBe(403);
  });
});
