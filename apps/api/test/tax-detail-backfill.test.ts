// The tax detail (IVA by rate, the complements' DR taxes and TipoCambioP) is written by the import
// and, for rows stored before it existed, back-filled from the kept XML to the very same values
// (docs/cfdi.md#taxes-by-rate). On PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
import { backfillTaxDetail } from '@folio/api';
import { cfdis, cfdiXml, paymentApplications, TAXES_VERSION } from '@folio/db/schema';
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile, setPlan, signUp, startTestApp, type TestApp, uploadXml } from './harness';
import { haveSamples, sample, stampedSample } from './samples';
import { forgetTaxDetail } from './support/forget-tax-detail';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const INVOICE_OF_REP = 'AAAAAAAA-0000-4000-8000-0000000000D1';
/** Each sample under a profile that is a party of it. */
const FILES: Array<{ rfc: string; tipo: 'FISICA' | 'MORAL'; xml: () => string | Buffer }> = [
  { rfc: 'KIJ0906199R1', tipo: 'MORAL', xml: () => sample('cfdi40-ingreso-ppd-rfc-ampersand.xml') },
  { rfc: 'KIJ0906199R1', tipo: 'MORAL', xml: () => sample('cfdi40-pago20-liquida-ppd-rfc-ampersand.xml') },
  { rfc: 'COSC8001137NA', tipo: 'FISICA', xml: () => sample('cfdi40-ingreso-pue-real.xml') },
  {
    rfc: 'COSC8001137NA',
    tipo: 'FISICA',
    xml: () => stampedSample('cfdi40-ingreso-usd-tipocambio.xml', 'ffffffff-0000-4000-8000-0000000000d2'),
  },
  {
    rfc: 'COSC8001137NA',
    tipo: 'FISICA',
    xml: () =>
      stampedSample('cfdi40-pago20-parcial-y-liquidacion.xml', 'ffffffff-0000-4000-8000-0000000000d3'),
  },
  { rfc: 'DIM8701081LA', tipo: 'MORAL', xml: () => sample('cfdi33-ingreso-pue-real.xml') },
  {
    rfc: 'CAPH5902083T6',
    tipo: 'FISICA',
    xml: () => stampedSample('cfdi33-pagos10-con-bom.xml', 'ffffffff-0000-4000-8000-0000000000d4'),
  },
  {
    rfc: 'EKU9003173C9',
    tipo: 'MORAL',
    xml: () =>
      stampedSample(
        'cfdi40-pago20-usd-docs-mxn-equivalenciadr.xml',
        'ffffffff-0000-4000-8000-0000000000d5',
        INVOICE_OF_REP,
      ),
  },
];

/** Imports every sample for one user; returns the stored CFDI ids. */
async function importSamples(): Promise<string[]> {
  const u = await signUp(t);
  await setPlan(t, u.id, 'PRO');
  const profiles = new Map<string, string>();
  const ids: string[] = [];
  for (const f of FILES) {
    if (!profiles.has(f.rfc)) {
      const p = await createProfile(t, u, {
        nombre: `Perfil ${f.rfc}`,
        rfc: f.rfc,
        tipo_persona: f.tipo,
        regimenes_fiscales: [f.tipo === 'MORAL' ? '601' : '612'],
      });
      profiles.set(f.rfc, p.id);
    }
    const res = await uploadXml(t, u, profiles.get(f.rfc)!, f.xml());
    const { data } = await res.json();
    expect(data.files[0].status, JSON.stringify(data)).toBe('imported');
    ids.push(data.files[0].id);
  }
  return ids;
}

const db = () => t.handle.db;
const TAX_COLUMNS = {
  base16: cfdis.base16,
  iva16: cfdis.iva16,
  base8: cfdis.base8,
  iva8: cfdis.iva8,
  base0: cfdis.base0,
  baseExenta: cfdis.baseExenta,
  ieps: cfdis.ieps,
};

/** The tax detail as stored: the CFDI rows and their payment applications, in a stable order. */
async function taxDetail(ids: string[]) {
  const documents = await db()
    .select({ uuid: cfdis.uuid, ...TAX_COLUMNS, taxesVersion: cfdis.taxesVersion })
    .from(cfdis)
    .where(inArray(cfdis.id, ids))
    .orderBy(asc(cfdis.uuid));
  const applications = await db()
    .select({
      repUuid: paymentApplications.repUuid,
      relatedUuid: paymentApplications.relatedUuid,
      numParcialidad: paymentApplications.numParcialidad,
      fechaPago: paymentApplications.fechaPago,
      monedaP: paymentApplications.monedaP,
      tipoCambioP: paymentApplications.tipoCambioP,
      equivalenciaDr: paymentApplications.equivalenciaDr,
      metodoPagoDr: paymentApplications.metodoPagoDr,
      impPagado: paymentApplications.impPagado,
      drTaxes: paymentApplications.drTaxes,
      base16: paymentApplications.base16,
      iva16: paymentApplications.iva16,
      base8: paymentApplications.base8,
      iva8: paymentApplications.iva8,
      base0: paymentApplications.base0,
      baseExenta: paymentApplications.baseExenta,
      ieps: paymentApplications.ieps,
      retencionIva: paymentApplications.retencionIva,
      retencionIsr: paymentApplications.retencionIsr,
    })
    .from(paymentApplications)
    .where(inArray(paymentApplications.repCfdiId, ids))
    .orderBy(
      asc(paymentApplications.repUuid),
      asc(paymentApplications.relatedUuid),
      asc(paymentApplications.numParcialidad),
    );
  return { documents, applications };
}

const none = { base16: 0, iva16: 0, base8: 0, iva8: 0, base0: 0, baseExenta: 0, ieps: 0 };
const unstated = {
  ...none,
  base16: null,
  iva16: null,
  base8: null,
  iva8: null,
  base0: null,
  baseExenta: null,
  ieps: null,
};

describe.skipIf(!haveSamples)('tax detail of the real samples', () => {
  it('the import stores IVA by rate per CFDI and each payment application’s DR taxes and TipoCambioP', async () => {
    const ids = await importSamples();
    const { documents, applications } = await taxDetail(ids);
    const byUuid = Object.fromEntries(documents.map((d) => [d.uuid, d]));
    // 4.0: the comprobante-level line.
    expect(byUuid['C2832671-DA6D-11EF-A83D-00155D012007']).toEqual({
      uuid: 'C2832671-DA6D-11EF-A83D-00155D012007',
      ...none,
      base16: 862.07,
      iva16: 137.93,
      taxesVersion: TAXES_VERSION,
    });
    // 3.3: no Base at comprobante level, so the concepts: 1355.67 + 353.45 and 216.91 + 56.55.
    expect(byUuid['CEE4BE01-ADFA-4DEB-8421-ADD60F0BEDAC']).toMatchObject({
      ...none,
      base16: 1709.12,
      iva16: 273.46,
    });
    // A REP has no taxes of its own.
    expect(byUuid['FFFFFFFF-0000-4000-8000-0000000000D3']).toMatchObject(none);

    const ofRep = (uuid: string) => applications.filter((a) => a.repUuid === uuid);
    expect(ofRep('FFFFFFFF-0000-4000-8000-0000000000D3')).toEqual([
      expect.objectContaining({
        relatedUuid: '00000000-1111-2222-3333-00000000000A',
        fechaPago: '2023-06-12T17:18:19',
        tipoCambioP: 1,
        equivalenciaDr: 1,
        drTaxes: true,
        ...none,
        base16: 10344.83,
        iva16: 1655.17,
        retencionIva: 0,
        retencionIsr: 0,
      }),
      expect.objectContaining({
        relatedUuid: '00000000-1111-2222-3333-00000000000B',
        base16: 2586.21,
        iva16: 413.79,
      }),
    ]);
    // USD payments of an MXN invoice: TipoCambioP per Pago, the DR's 16 %, 0 % and exempt lines (MXN, 6 decimals).
    expect(ofRep('FFFFFFFF-0000-4000-8000-0000000000D5')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          numParcialidad: 5,
          monedaP: 'USD',
          tipoCambioP: 17.4732,
          equivalenciaDr: 17.4731470231,
          drTaxes: true,
          base16: 1633.155299,
          iva16: 261.304848,
          base0: 62.82699,
          baseExenta: 199.774547,
        }),
      ]),
    );
    // Pagos 1.0: no DR taxes stated (the report takes the invoice's in proportion).
    expect(ofRep('FFFFFFFF-0000-4000-8000-0000000000D4')).toEqual([
      expect.objectContaining({
        metodoPagoDr: 'PPD',
        tipoCambioP: 1,
        drTaxes: false,
        ...unstated,
        retencionIva: null,
        retencionIsr: null,
      }),
    ]);
  });

  it('rows stored before the migration get, from their XML, exactly what a fresh import stores', async () => {
    const ids = await importSamples();
    const fresh = await taxDetail(ids);
    await forgetTaxDetail(db(), ids);
    const forgotten = await taxDetail(ids);
    expect(forgotten.documents.every((d) => d.taxesVersion === null && d.base16 === null)).toBe(true);

    // Batches of 3 rows: the 8 documents take several transactions.
    const done = await backfillTaxDetail(db(), { batch: 3 });
    expect(done.filled).toBeGreaterThanOrEqual(ids.length);
    expect(done.unreadable).toBe(0);
    expect(await taxDetail(ids)).toEqual(fresh);

    // Idempotent: nothing is left to do.
    expect(await backfillTaxDetail(db())).toEqual({ filled: 0, unreadable: 0 });
    expect(await taxDetail(ids)).toEqual(fresh);
  });

  it('two back-fills at once (two processes starting) derive each row once and agree', async () => {
    const ids = await importSamples();
    const fresh = await taxDetail(ids);
    await backfillTaxDetail(db()); // whatever earlier tests left
    await forgetTaxDetail(db(), ids);
    const [a, b] = await Promise.all([
      backfillTaxDetail(db(), { batch: 2 }),
      backfillTaxDetail(db(), { batch: 2 }),
    ]);
    expect(a.filled + b.filled).toBe(ids.length);
    expect(await taxDetail(ids)).toEqual(fresh);
  });

  it('a stored XML that no longer parses is marked unreadable (taxes_version 0) and not retried', async () => {
    const ids = await importSamples();
    await backfillTaxDetail(db());
    const [id] = ids;
    await forgetTaxDetail(db(), [id!]);
    await db().update(cfdiXml).set({ xml: '<not-a-cfdi/>' }).where(eq(cfdiXml.cfdiId, id!));
    expect(await backfillTaxDetail(db())).toEqual({ filled: 0, unreadable: 1 });
    const [row] = await db()
      .select({ taxesVersion: cfdis.taxesVersion, ...TAX_COLUMNS })
      .from(cfdis)
      .where(eq(cfdis.id, id!));
    expect(row).toEqual({ taxesVersion: 0, ...unstated });
    expect(await backfillTaxDetail(db())).toEqual({ filled: 0, unreadable: 0 });
  });
});
