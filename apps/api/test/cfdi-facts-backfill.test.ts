// Issue 24: the CFDI facts the tax reports read (docs/cfdi.md#facts) — FormaPago/MetodoPago,
// relations in list order, base by ObjetoImp, concepts by ClaveProdServ, withholdings by rate,
// LugarExpedicion, Nómina totals, the REPs' per-document fields — are stored by the import and
// derived again, identical, by the back-fill: for rows from before the facts existed (NULL) and for
// rows of the previous derivation (taxes_version 1). On PGlite and, with TEST_DATABASE_URL, PostgreSQL.
import { backfillTaxDetail } from '@folio/api';
import { invoiceXml, newUuid, type Party, paymentXml, payrollXml } from '@folio/cfdi/testing';
import { cfdis, paymentApplications, TAXES_VERSION } from '@folio/db/schema';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, imported, ME, profileOfMe, SUPPLIER } from './cfdi-helpers';
import { startTestApp, type TestApp } from './harness';
import { forgetTaxDetail } from './support/forget-tax-detail';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const EMPLOYEE: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '605' };

/** One of each kind of document a report reads, imported into ME's profile; their ids. */
async function importEveryKind() {
  const { u, p } = await profileOfMe(t);
  const uuids = {
    advance: newUuid(),
    sale: newUuid(),
    note07: newUuid(),
    note01: newUuid(),
    rep: newUuid(),
    nomina: newUuid(),
    expense: newUuid(),
  };
  const docs = [
    invoiceXml({
      uuid: uuids.advance,
      emisor: ME,
      receptor: CLIENT,
      fecha: '2025-02-10T10:00:00',
      conceptos: [{ descripcion: 'Anticipo del bien o servicio', importe: 1000, claveProdServ: '84111506' }],
    }),
    invoiceXml({
      uuid: uuids.sale,
      emisor: ME,
      receptor: CLIENT,
      fecha: '2025-03-10T10:00:00',
      metodoPago: 'PPD',
      lugarExpedicion: '22000',
      conceptos: [
        { descripcion: 'Mercancía', importe: 5000, claveProdServ: '43211500' },
        { descripcion: 'Intereses', importe: 100, claveProdServ: '84101700', ivaRate: 'exento' },
        { descripcion: 'Cuota', importe: 50, objetoImp: '01' },
      ],
    }),
    invoiceXml({
      uuid: uuids.note07,
      emisor: ME,
      receptor: CLIENT,
      fecha: '2025-03-10T11:00:00',
      tipoDeComprobante: 'E',
      formaPago: '30',
      relacionados: [{ tipoRelacion: '07', uuids: [uuids.sale] }],
      conceptos: [{ descripcion: 'Aplicación de anticipo', importe: 1000, claveProdServ: '84111506' }],
    }),
    invoiceXml({
      uuid: uuids.note01,
      emisor: ME,
      receptor: CLIENT,
      fecha: '2025-03-12T10:00:00',
      tipoDeComprobante: 'E',
      relacionados: [
        { tipoRelacion: '01', uuids: [uuids.sale, uuids.advance] },
        { tipoRelacion: '03', uuids: [uuids.sale] },
      ],
      conceptos: [{ descripcion: 'Bonificación', importe: 100 }],
    }),
    paymentXml({
      uuid: uuids.rep,
      emisor: ME,
      receptor: CLIENT,
      fecha: '2025-04-02T10:00:00',
      pagos: [
        {
          fechaPago: '2025-04-01T12:00:00',
          monedaP: 'USD',
          tipoCambioP: 20,
          doctos: [
            {
              uuid: uuids.sale,
              monedaDR: 'MXN',
              equivalenciaDR: 20,
              numParcialidad: 1,
              impSaldoAnt: 4700,
              impPagado: 2000,
            },
          ],
        },
      ],
    }),
    payrollXml({
      uuid: uuids.nomina,
      emisor: ME,
      receptor: EMPLOYEE,
      fecha: '2025-03-14T12:00:00',
      fechaPago: '2025-03-15',
      gravado: 8000,
      isr: 600,
      subsidio: { pagado: 0, causado: 200 },
    }),
    invoiceXml({
      uuid: uuids.expense,
      emisor: { ...SUPPLIER, rfc: 'COSC8001137NA', regimen: '612' },
      receptor: ME,
      fecha: '2025-03-05T10:00:00',
      conceptos: [{ descripcion: 'Honorarios', importe: 1000 }],
      retenciones: { isr: 0.1, iva: 0.106667 },
    }),
  ];
  const ids = [];
  for (const xml of docs) ids.push(await imported(t, u, p.id, xml));
  return { ids, uuids };
}

const db = () => t.handle.db;

/** The facts as stored on the CFDI rows and their payment applications, in a stable order. */
async function stored(ids: string[]) {
  const documents = await db()
    .select({
      uuid: cfdis.uuid,
      formaPago: cfdis.formaPago,
      metodoPago: cfdis.metodoPago,
      regimenFiscalEmisor: cfdis.regimenFiscalEmisor,
      lugarExpedicion: cfdis.lugarExpedicion,
      facts: cfdis.facts,
      base16: cfdis.base16,
      iva16: cfdis.iva16,
      baseExenta: cfdis.baseExenta,
      taxesVersion: cfdis.taxesVersion,
    })
    .from(cfdis)
    .where(inArray(cfdis.id, ids))
    .orderBy(asc(cfdis.uuid));
  const applications = await db()
    .select({
      relatedUuid: paymentApplications.relatedUuid,
      fechaPago: paymentApplications.fechaPago,
      formaPago: paymentApplications.formaPago,
      monedaP: paymentApplications.monedaP,
      tipoCambioP: paymentApplications.tipoCambioP,
      equivalenciaDr: paymentApplications.equivalenciaDr,
      numParcialidad: paymentApplications.numParcialidad,
      impSaldoAnt: paymentApplications.impSaldoAnt,
      impPagado: paymentApplications.impPagado,
      impSaldoInsoluto: paymentApplications.impSaldoInsoluto,
    })
    .from(paymentApplications)
    .where(inArray(paymentApplications.repCfdiId, ids))
    .orderBy(asc(paymentApplications.relatedUuid));
  return { documents, applications };
}

describe('CFDI facts at import and from the back-fill', () => {
  it('the import stores each fact a report reads', async () => {
    const { ids, uuids } = await importEveryKind();
    const { documents, applications } = await stored(ids);
    const by = (uuid: string) => documents.find((d) => d.uuid === uuid)!;
    expect(documents.every((d) => d.taxesVersion === TAXES_VERSION)).toBe(true);

    expect(by(uuids.sale)).toMatchObject({
      formaPago: '99',
      metodoPago: 'PPD',
      regimenFiscalEmisor: '601',
      lugarExpedicion: '22000',
      base16: 5000,
      iva16: 800,
      baseExenta: 100,
      facts: {
        emisorPersonaFisica: false,
        relacionados: [],
        // 02: 5000 + 100; 01: the 50 cuota.
        basePorObjetoImp: { '02': 5000 + 100, '01': 50 },
        conceptos: [
          { claveProdServ: '43211500', objetoImp: '02', interes: false, base: 5000, iva: 800 },
          { claveProdServ: '84101700', objetoImp: '02', interes: true, base: 100, iva: 0 },
          { claveProdServ: '80101500', objetoImp: '01', interes: false, base: 50, iva: 0 },
        ],
        retenciones: [],
      },
    });
    expect(by(uuids.note07)).toMatchObject({
      formaPago: '30',
      facts: { relacionados: [{ tipoRelacion: '07', uuids: [uuids.sale] }] },
    });
    expect(by(uuids.note01)).toMatchObject({
      facts: {
        relacionados: [
          { tipoRelacion: '01', uuids: [uuids.sale, uuids.advance] },
          { tipoRelacion: '03', uuids: [uuids.sale] },
        ],
      },
    });
    expect(by(uuids.expense)).toMatchObject({
      facts: {
        emisorPersonaFisica: true,
        retenciones: [
          { impuesto: 'ISR', tasa: 0.1, base: 1000, importe: 100 },
          { impuesto: 'IVA', tasa: 0.106667, base: 1000, importe: 106.67 },
        ],
      },
    });
    expect(by(uuids.nomina)).toMatchObject({
      facts: {
        nomina: {
          fechaPago: '2025-03-15',
          percepcionesGravadas: 8000,
          totalImpuestosRetenidos: 600,
          subsidioCausado: 200,
        },
      },
    });
    expect(applications).toEqual([
      {
        relatedUuid: uuids.sale,
        fechaPago: '2025-04-01T12:00:00',
        formaPago: '03',
        monedaP: 'USD',
        tipoCambioP: 20,
        equivalenciaDr: 20,
        numParcialidad: 1,
        impSaldoAnt: 4700,
        impPagado: 2000,
        impSaldoInsoluto: 4700 - 2000,
      },
    ]);
  });

  it.each([
    ['stored before any derivation (taxes_version NULL)', null],
    ['derived by the previous version (taxes_version 1, no facts)', 1],
  ])('rows %s get from their XML exactly what a fresh import stores', async (_, version) => {
    const { ids } = await importEveryKind();
    const fresh = await stored(ids);
    await forgetTaxDetail(db(), ids, version);
    const forgotten = await stored(ids);
    expect(forgotten.documents.every((d) => d.facts === null && d.lugarExpedicion === null)).toBe(true);

    const done = await backfillTaxDetail(db(), { batch: 3 });
    expect(done.filled).toBeGreaterThanOrEqual(ids.length);
    expect(await stored(ids)).toEqual(fresh);
    // Idempotent.
    expect(await backfillTaxDetail(db())).toEqual({ filled: 0, unreadable: 0 });
  });

  it('the back-fill recomputes the payment state by the current rules (tax-rules §3), as a fresh import has it', async () => {
    const { u, p } = await profileOfMe(t);
    const put = (xml: string) => imported(t, u, p.id, xml);
    const inv = newUuid();
    const ids = [
      await put(
        invoiceXml({
          uuid: inv,
          emisor: ME,
          receptor: CLIENT,
          fecha: '2025-03-01T10:00:00',
          metodoPago: 'PPD',
        }),
      ),
      // Pays 500 of 1,160 and states 0 left: issue 12 called the invoice PAGADO.
      await put(
        paymentXml({
          uuid: newUuid(),
          emisor: ME,
          receptor: CLIENT,
          fecha: '2025-03-10T10:00:00',
          pagos: [
            {
              fechaPago: '2025-03-10T10:00:00',
              doctos: [
                { uuid: inv, numParcialidad: 1, impSaldoAnt: 1160, impPagado: 500, impSaldoInsoluto: 0 },
              ],
            },
          ],
        }),
      ),
      await put(
        invoiceXml({
          uuid: newUuid(),
          emisor: ME,
          receptor: ME,
          fecha: '2025-03-02T10:00:00',
          tipoDeComprobante: 'T',
          conceptos: [{ descripcion: 'Traslado', importe: 0, objetoImp: '01' }],
        }),
      ),
      await put(
        payrollXml({
          uuid: newUuid(),
          emisor: ME,
          receptor: EMPLOYEE,
          fecha: '2025-03-14T12:00:00',
          fechaPago: '2025-03-15',
          gravado: 8000,
        }),
      ),
    ];
    const states = () =>
      db()
        .select({
          id: cfdis.id,
          estadoPago: cfdis.estadoPago,
          isPaid: cfdis.isPaid,
          paymentDate: cfdis.paymentDate,
          pagos: cfdis.pagos,
        })
        .from(cfdis)
        .where(inArray(cfdis.id, ids))
        .orderBy(asc(cfdis.id));
    const fresh = await states();
    expect(fresh.find((r) => r.id === ids[0])?.estadoPago).toMatchObject({
      estado: 'PAGO_PARCIAL',
      saldoPendiente: 660,
    });
    // As the rows were under issue 12's rules: the invoice PAGADO, the traslado PAGADO, the nómina paid on its Fecha.
    const paid = { estado: 'PAGADO', saldoPendiente: 0 };
    await db().update(cfdis).set({ estadoPago: paid, isPaid: true }).where(eq(cfdis.id, ids[0]!));
    await db().update(cfdis).set({ estadoPago: paid, isPaid: true }).where(eq(cfdis.id, ids[2]!));
    await db().update(cfdis).set({ paymentDate: sql`fecha` }).where(eq(cfdis.id, ids[3]!));
    await forgetTaxDetail(db(), ids, 1);
    await backfillTaxDetail(db());
    expect(await states()).toEqual(fresh);
  });
});
