// The import writes files in batches (packages/api/src/services/cfdi/import.ts). Whatever the batch
// holds, each file's line and every stored row must be what importing the files one by one gives:
// checked against a second user who imports the same files one request at a time. On PGlite and,
// with TEST_DATABASE_URL, on PostgreSQL.
import { quotaPeriod } from '@folio/billing';
import { invoiceXml, type Party, paymentXml } from '@folio/cfdi/testing';
import { cfdiRelations, cfdis, cfdiXml, paymentApplications, usageCounters } from '@folio/db/schema';
import { and, eq } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, ME, SUPPLIER } from './cfdi-helpers';
import {
  caller,
  createProfile,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
  uploadFiles,
} from './harness';
import { haveSamples, sample } from './samples';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

type Line = { name: string; status: string; id?: string; uuid?: string; error?: string; code?: string };

const uuidOf = (i: number) => `BA7C0000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const FOREIGN: Party = { rfc: 'XAXX010101000', nombre: 'Otro', regimen: '616' };

/** A user (PRO unless given) with one profile for `party`. */
async function profileFor(party: Party, plan: 'PRO' | null = 'PRO') {
  const u = await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  const p = await createProfile(t, u, {
    nombre: party.nombre,
    rfc: party.rfc,
    tipo_persona: party.rfc.length === 12 ? 'MORAL' : 'FISICA',
    regimenes_fiscales: [party.regimen],
  });
  return { u, p };
}

/** Uploads the files as one ZIP; 201 when something was stored, 200 when nothing was. */
async function importZip(u: TestUser, profileId: string, files: [string, string | Buffer][], status = 201) {
  const zip = zipSync(
    Object.fromEntries(files.map(([name, xml]) => [name, typeof xml === 'string' ? strToU8(xml) : xml])),
  );
  const res = await uploadFiles(t, u, profileId, [{ name: 'lote.zip', content: Buffer.from(zip) }]);
  const body = await res.json();
  expect(res.status, JSON.stringify(body).slice(0, 500)).toBe(status);
  return body.data as { imported: number; duplicates: number; rejected: number; files: Line[] };
}

/** The same files, one tRPC import each, in the same order: the lines the file-by-file import gives. */
async function importOneByOne(u: TestUser, profileId: string, files: [string, string | Buffer][]) {
  const lines: Line[] = [];
  for (const [name, xml] of files) {
    const { data } = await caller(t, u.token).cfdi.import({
      profileId,
      files: [{ name: `lote.zip/${name}`, content: xml.toString() }],
    });
    lines.push(...data.files);
  }
  return lines;
}

const withoutIds = ({ id: _, ...line }: Line) => line;

/** Everything a profile's import stored, keyed by UUIDs instead of the ids and profile that differ. */
async function stored(profileId: string) {
  const db = t.handle.db;
  const rows = await db.select().from(cfdis).where(eq(cfdis.profileId, profileId));
  const uuidOfId = new Map(rows.map((r) => [r.id, r.uuid]));
  const byUuid = <T>(xs: T[], key: (x: T) => string) => xs.sort((a, b) => key(a).localeCompare(key(b)));
  const cfdiRows = rows.map(({ id: _i, profileId: _p, userId: _u, createdAt: _c, updatedAt: _m, ...r }) => r);
  const apps = (
    await db.select().from(paymentApplications).where(eq(paymentApplications.profileId, profileId))
  ).map(({ id: _i, profileId: _p, repCfdiId, ...a }) => ({ ...a, rep: uuidOfId.get(repCfdiId) }));
  const relations = (await db.select().from(cfdiRelations).where(eq(cfdiRelations.profileId, profileId))).map(
    ({ cfdiId, profileId: _p, ...r }) => ({ ...r, of: uuidOfId.get(cfdiId) }),
  );
  const xml = await db
    .select({ uuid: cfdis.uuid, xml: cfdiXml.xml })
    .from(cfdiXml)
    .innerJoin(cfdis, eq(cfdis.id, cfdiXml.cfdiId))
    .where(eq(cfdis.profileId, profileId));
  return {
    cfdis: byUuid(cfdiRows, (r) => r.uuid),
    applications: byUuid(apps, (a) => `${a.rep}:${a.relatedUuid}:${a.numParcialidad}`),
    relations: byUuid(relations, (r) => `${r.of}:${r.relatedUuid}`),
    xml: byUuid(xml, (x) => x.uuid),
  };
}

const used = async (userId: string) =>
  (
    await t.handle.db
      .select({ used: usageCounters.used })
      .from(usageCounters)
      .where(
        and(
          eq(usageCounters.userId, userId),
          eq(usageCounters.period, quotaPeriod()),
          eq(usageCounters.kind, 'cfdi_import'),
        ),
      )
  )[0]?.used ?? 0;

/**
 * 240 files (more than one batch on either database) of every kind, in an order that makes the batch matter: complements
 * and credit notes both before and after the invoices they name (some in an earlier or later
 * batch), IVA at 16, 8 and 0 %, USD payments with TipoCambioP. Every 10th file is invalid
 * (malformed, or not the profile's); every 7th is a duplicate: of a file stored before the ZIP, or
 * of the file just before it.
 */
function mixedZip(pre: string) {
  const N = 240;
  const files: [string, string][] = [];
  const invalid = (i: number) => i % 10 === 9;
  const duplicate = (i: number) => !invalid(i) && i % 7 === 6;
  const ppd = (i: number) => i % 5 === 1; // the PPD invoices complements and credit notes name
  for (let i = 0; i < N; i++) {
    const name = `f${String(i).padStart(3, '0')}.xml`;
    const uuid = uuidOf(i);
    const fecha = `2025-0${1 + (i % 9)}-1${i % 10}T10:00:00`;
    let xml: string;
    if (invalid(i)) {
      xml =
        i % 20 === 9
          ? '<cfdi:Comprobante Version="4.0"><sin cerrar'
          : invoiceXml({ uuid, emisor: FOREIGN, receptor: CLIENT, fecha });
    } else if (duplicate(i)) {
      xml = i === 6 ? pre : files[invalid(i - 1) ? i - 2 : i - 1]![1];
    } else if (i % 5 === 3) {
      // A complement: of the PPD invoice two files back, or (every other one) of the one two files ahead.
      const paid = i % 10 === 3 ? i - 2 : i + 3;
      const usd = i % 15 === 3;
      xml = paymentXml({
        uuid,
        emisor: ME,
        receptor: CLIENT,
        fecha,
        pagos: [
          {
            fechaPago: fecha,
            ...(usd ? { monedaP: 'USD', tipoCambioP: 17.5 } : {}),
            doctos: [
              {
                uuid: uuidOf(paid),
                ...(usd ? { monedaDR: 'MXN', equivalenciaDR: 17.5 } : {}),
                numParcialidad: 1,
                impSaldoAnt: 1080,
                impPagado: i % 4 === 3 ? 1080 : 500,
              },
            ],
          },
        ],
      });
    } else if (i % 5 === 4) {
      // A credit note: of the PPD invoice three files back, or (every other one) of the one two files ahead.
      const credited = i % 20 === 4 ? i - 3 : i + 2;
      xml = invoiceXml({
        uuid,
        emisor: ME,
        receptor: CLIENT,
        fecha,
        tipoDeComprobante: 'E',
        conceptos: [{ descripcion: 'Descuento', importe: 100 }],
        ivaRate: 8,
        relacionados: [{ tipoRelacion: '01', uuids: [uuidOf(credited)] }],
      });
    } else if (i % 5 === 2) {
      xml = invoiceXml({ uuid, emisor: SUPPLIER, receptor: ME, fecha, ivaRate: 0 });
    } else {
      xml = invoiceXml({
        uuid,
        emisor: ME,
        receptor: CLIENT,
        fecha,
        metodoPago: ppd(i) ? 'PPD' : 'PUE',
        ivaRate: ppd(i) ? 8 : 16,
        conceptos: [{ descripcion: `Servicio ${i}`, importe: ppd(i) ? 1000 : 500 + i }],
      });
    }
    files.push([name, xml]);
  }
  return { files, invalid, duplicate };
}

describe('a ZIP written in batches reports and stores what importing its files one by one does', () => {
  it('every 10th file invalid, every 7th a duplicate: exact per-file report, counts, stored rows and quota', {
    timeout: 600_000,
  }, async () => {
    const pre = invoiceXml({
      uuid: uuidOf(9999),
      emisor: ME,
      receptor: CLIENT,
      fecha: '2025-01-02T10:00:00',
    });
    const { files, invalid, duplicate } = mixedZip(pre);
    const batch = await profileFor(ME);
    const reference = await profileFor(ME);
    const [preLine] = await importOneByOne(batch.u, batch.p.id, [['pre.xml', pre]]);
    await importOneByOne(reference.u, reference.p.id, [['pre.xml', pre]]);

    const report = await importZip(batch.u, batch.p.id, files);

    // The report: one line per file, in the ZIP's order, each as the rule says.
    expect(report.files.map((f) => f.name)).toEqual(files.map(([name]) => `lote.zip/${name}`));
    const idByUuid = new Map([[uuidOf(9999), preLine!.id]]);
    report.files.forEach((line, i) => {
      const what = `${line.name}: ${JSON.stringify(line)}`;
      if (invalid(i)) {
        expect(line.status, what).toBe('rejected');
        expect(line.error, what).toMatch(i % 20 === 9 ? /mal formado/i : /XAXX010101000/);
        expect(line.id, what).toBeUndefined();
      } else if (duplicate(i)) {
        expect(line.status, what).toBe('duplicate');
        expect(line.id, what).toBe(idByUuid.get(line.uuid!));
      } else {
        expect(line.status, what).toBe('imported');
        expect(line.uuid, what).toBe(uuidOf(i));
        idByUuid.set(line.uuid!, line.id);
      }
    });
    const rejected = files.filter((_, i) => invalid(i)).length;
    const duplicates = files.filter((_, i) => duplicate(i)).length;
    expect(report).toMatchObject({ imported: files.length - rejected - duplicates, duplicates, rejected });

    // The same lines, ids aside, as the file-by-file import; the same rows, payment states included.
    const oneByOne = await importOneByOne(reference.u, reference.p.id, files);
    expect(report.files.map(withoutIds)).toEqual(oneByOne.map(withoutIds));
    const [got, want] = [await stored(batch.p.id), await stored(reference.p.id)];
    expect(got.cfdis).toHaveLength(report.imported + 1);
    expect(
      got.cfdis.filter((c) => c.estadoPago && (c.estadoPago as { estado: string }).estado !== 'NO_PAGADO'),
    ).not.toHaveLength(0);
    expect(got.applications.some((a) => a.monedaP === 'USD' && a.tipoCambioP === 17.5)).toBe(true);
    expect(got).toEqual(want);
    // The quota counted exactly the stored files.
    expect(await used(batch.u.id)).toBe(report.imported + 1);

    // Re-imported, every file is a duplicate or the same rejection, and nothing more is stored or counted.
    const again = await importZip(batch.u, batch.p.id, files, 200);
    expect(again).toMatchObject({ imported: 0, duplicates: files.length - rejected, rejected });
    expect(await stored(batch.p.id)).toEqual(got);
    expect(await used(batch.u.id)).toBe(report.imported + 1);
  });

  it('a batch that crosses the monthly quota keeps exactly the files that fit, in order; the rest are refused for it', async () => {
    const pre = invoiceXml({
      uuid: uuidOf(8888),
      emisor: ME,
      receptor: CLIENT,
      fecha: '2025-01-02T10:00:00',
    });
    const sale = (i: number) =>
      invoiceXml({ uuid: uuidOf(800 + i), emisor: ME, receptor: CLIENT, fecha: '2025-02-03T10:00:00' });
    const files: [string, string][] = [
      ['a.xml', sale(1)],
      ['pre-again.xml', pre],
      ['roto.xml', '<cfdi:Comprobante Version="4.0"><sin cerrar'],
      ['b.xml', sale(2)],
      ['c.xml', sale(3)],
      ['d.xml', sale(4)],
      ['e.xml', sale(5)], // the 5th import: FREE's 50th
      ['roto-2.xml', 'no es XML'],
      ['a-again.xml', sale(1)],
    ];
    const results = [];
    for (const importer of ['zip', 'one by one'] as const) {
      const { u, p } = await profileFor(ME, null);
      const [line] = await importOneByOne(u, p.id, [['pre.xml', pre]]);
      expect(line!.status).toBe('imported');
      // FREE allows 50 a month: 45 used, so 5 more fit.
      await t.handle.db
        .update(usageCounters)
        .set({ used: 45 })
        .where(and(eq(usageCounters.userId, u.id), eq(usageCounters.kind, 'cfdi_import')));
      const lines =
        importer === 'zip' ? (await importZip(u, p.id, files)).files : await importOneByOne(u, p.id, files);
      expect(
        lines.map((l) => [l.name, l.status, l.code]),
        importer,
      ).toEqual([
        ['lote.zip/a.xml', 'imported', undefined],
        ['lote.zip/pre-again.xml', 'duplicate', undefined],
        ['lote.zip/roto.xml', 'rejected', 'xml_malformed'],
        ['lote.zip/b.xml', 'imported', undefined],
        ['lote.zip/c.xml', 'imported', undefined],
        ['lote.zip/d.xml', 'imported', undefined],
        ['lote.zip/e.xml', 'imported', undefined],
        ['lote.zip/roto-2.xml', 'rejected', 'quota_exceeded'],
        ['lote.zip/a-again.xml', 'rejected', 'quota_exceeded'],
      ]);
      expect(await used(u.id), importer).toBe(50);
      results.push(await stored(p.id));
    }
    expect(results[0]!.cfdis).toHaveLength(6);
    expect(results[0]).toEqual(results[1]);
  });

  it.skipIf(!haveSamples)(
    'a real complement with DR taxes before its invoice, in one ZIP: the same rows as one by one',
    async () => {
      const KIJ: Party = { rfc: 'KIJ0906199R1', nombre: 'Kijo', regimen: '601' };
      const files: [string, Buffer][] = [
        ['rep.xml', sample('cfdi40-pago20-liquida-ppd-rfc-ampersand.xml')],
        ['factura.xml', sample('cfdi40-ingreso-ppd-rfc-ampersand.xml')],
      ];
      const batch = await profileFor(KIJ);
      const reference = await profileFor(KIJ);
      const report = await importZip(batch.u, batch.p.id, files);
      expect(report.files.map((f) => f.status)).toEqual(['imported', 'imported']);
      await importOneByOne(reference.u, reference.p.id, files);
      const [got, want] = [await stored(batch.p.id), await stored(reference.p.id)];
      expect(got.applications.some((a) => a.drTaxes)).toBe(true);
      expect(got).toEqual(want);
    },
  );
});

describe('a new invoice is written once when nothing pays it', () => {
  it('its payment state goes in with the row (updated_at stays created_at); one a complement in the same ZIP pays is then updated; all in one transaction', async () => {
    const { u, p } = await profileFor(ME);
    const invoice = (i: number, metodoPago: 'PUE' | 'PPD') =>
      invoiceXml({
        uuid: uuidOf(8000 + i),
        emisor: ME,
        receptor: CLIENT,
        fecha: '2025-04-10T10:00:00',
        metodoPago,
        ivaRate: 8,
        conceptos: [{ descripcion: 'Servicio', importe: 1000 }],
      });
    const complement = paymentXml({
      uuid: uuidOf(8003),
      emisor: ME,
      receptor: CLIENT,
      fecha: '2025-04-20T10:00:00',
      pagos: [
        {
          fechaPago: '2025-04-20T10:00:00',
          doctos: [{ uuid: uuidOf(8002), numParcialidad: 1, impSaldoAnt: 1080, impPagado: 1080 }],
        },
      ],
    });
    const report = await importZip(u, p.id, [
      ['pue.xml', invoice(0, 'PUE')],
      ['ppd-sin-pago.xml', invoice(1, 'PPD')],
      ['ppd-pagada.xml', invoice(2, 'PPD')],
      ['pago.xml', complement],
    ]);
    expect(report.imported).toBe(4);
    const rows = await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, p.id));
    const row = (i: number) => rows.find((r) => r.uuid === uuidOf(8000 + i))!;
    const estado = (i: number) => (row(i).estadoPago as { estado: string }).estado;
    expect([estado(0), estado(1), estado(2)]).toEqual(['PAGADO', 'NO_PAGADO', 'PAGADO']);
    expect(row(0).updatedAt).toEqual(row(0).createdAt);
    expect(row(1).updatedAt).toEqual(row(1).createdAt);
    expect(row(2).updatedAt).not.toEqual(row(2).createdAt);
    // One batch, one transaction (created_at is its start): the rows were not stored one by one.
    expect(new Set(rows.map((r) => r.createdAt.getTime())).size).toBe(1);
  });
});
