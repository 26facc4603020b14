// The SAT status of every CFDI (tax-rules §1; CFF 29-A, RMF 2.7.1.35/2.7.1.38 on cancellation,
// Anexo 20's TipoRelacion 04): SAT's metadata files, the user's own mark and a substitution say
// whether a CFDI is cancelled, and a cancelled one counts in no report, total or payment status.
// Every figure below is worked by hand from the documents' amounts.
import { backfillSubstitutions } from '@folio/api';
import { quotaPeriod } from '@folio/billing';
import { invoiceXml, newUuid, type Party, paymentXml } from '@folio/cfdi/testing';
import { addUsage, usedQuota } from '@folio/db/queries/usage';
import { cfdis, profiles } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, getJson, imported, ME, profileOfMe, SUPPLIER } from './cfdi-helpers';
import {
  bearer,
  caller,
  expectError,
  request,
  startTestApp,
  type TestApp,
  type TestUser,
  uploadXml,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const HEADER =
  'Uuid~RfcEmisor~NombreEmisor~RfcReceptor~NombreReceptor~RfcPac~FechaEmision~FechaCertificacionSat~Monto~EfectoComprobante~Estatus~FechaCancelacion';

/** One record of a metadata file, as SAT writes it. */
const record = (
  uuid: string,
  estatus: 0 | 1,
  o: { cancelado?: string; fecha?: string; monto?: number; from?: Party; to?: Party; efecto?: string } = {},
) =>
  [
    uuid,
    (o.from ?? ME).rfc,
    (o.from ?? ME).nombre,
    (o.to ?? CLIENT).rfc,
    (o.to ?? CLIENT).nombre,
    'SAT970701NN3',
    o.fecha ?? '2025-05-10 10:00:00',
    o.fecha ?? '2025-05-10 10:01:00',
    (o.monto ?? 1160).toFixed(2),
    o.efecto ?? 'I',
    String(estatus),
    o.cancelado ?? '',
  ].join('~');

/** A metadata file: the header and the records, CRLF after each. */
const metadataFile = (...records: string[]) => `${[HEADER, ...records].join('\r\n')}\r\n`;

const postMetadata = (u: TestUser, profileId: string, text: string) =>
  t.app.request(`/api/profiles/${profileId}/sat-metadata`, {
    method: 'POST',
    headers: { ...bearer(u.token), 'content-type': 'text/plain' },
    body: text,
  });

const sale = (
  uuid: string,
  fecha: string,
  importe: number,
  extra: Partial<Parameters<typeof invoiceXml>[0]> = {},
) =>
  invoiceXml({
    uuid,
    emisor: ME,
    receptor: CLIENT,
    fecha,
    conceptos: [{ descripcion: 'Servicio', importe }],
    ...extra,
  });

const rep = (
  invoiceUuid: string,
  fechaPago: string,
  impSaldoAnt: number,
  impPagado: number,
  extra: { uuid?: string; relacionados?: { tipoRelacion: string; uuids: string[] }[] } = {},
) =>
  paymentXml({
    uuid: extra.uuid ?? newUuid(),
    emisor: ME,
    receptor: CLIENT,
    fecha: fechaPago,
    relacionados: extra.relacionados,
    pagos: [{ fechaPago, doctos: [{ uuid: invoiceUuid, numParcialidad: 1, impSaldoAnt, impPagado }] }],
  });

const may = async (u: TestUser, profileId: string) =>
  (await getJson(t, u, `/api/reports/monthly?profileId=${profileId}&año=2025&mes=5`)).data as {
    ingresos: { documentos: number; total: number; iva_trasladado: number };
    flujo: { cobrado: { total: number; iva_trasladado: number } };
    pendientes: { por_cobrar: { documentos: number; saldo: number } };
    advertencias: string[];
  };

const invoice = (u: TestUser, id: string) => getJson(t, u, `/api/invoices/${id}`);

describe('SAT metadata files (POST /api/profiles/{id}/sat-metadata)', () => {
  it('a cancelado line takes the CFDI out of the monthly report, its totals and the payment status it gave; the complementaria, the unknown status and the missing XML are said', async () => {
    const { u, p } = await profileOfMe(t);
    const [a, b, c, r, m] = [newUuid(), newUuid(), newUuid(), newUuid(), newUuid()];
    // A: PUE 10,000 + IVA 1,600 = 11,600. B: PUE 2,000 + 320 = 2,320. C: PPD 5,000 + 800 = 5,800,
    // of which the complement R pays 2,900 on May 20.
    await imported(t, u, p.id, sale(a, '2025-05-05T10:00:00', 10000));
    await imported(t, u, p.id, sale(b, '2025-05-06T10:00:00', 2000));
    const cId = await imported(t, u, p.id, sale(c, '2025-05-07T10:00:00', 5000, { metodoPago: 'PPD' }));
    await imported(t, u, p.id, rep(c, '2025-05-20T12:00:00', 5800, 2900, { uuid: r }));

    const before = await may(u, p.id);
    expect(before.ingresos).toMatchObject({ documentos: 3, total: 11600 + 2320 + 5800 });
    // Cash: A and B on their dates, R's 2,900 of C (IVA in proportion: 2,900 × 800 / 5,800 = 400).
    expect(before.flujo.cobrado).toMatchObject({
      total: 11600 + 2320 + 2900,
      iva_trasladado: 1600 + 320 + 400,
    });
    expect(before.pendientes.por_cobrar).toEqual({ documentos: 1, saldo: 5800 - 2900 });
    expect(before.advertencias).toContain(
      '4 CFDI del periodo con estatus ante el SAT desconocido: suba los metadatos del SAT (POST /api/profiles/{id}/sat-metadata) para saber si alguno está cancelado',
    );

    // A cancelled within May; R cancelled on June 10, after May closed; B vigente; M unknown to Folio.
    const res = await postMetadata(
      u,
      p.id,
      metadataFile(
        record(a, 0, { cancelado: '2025-05-25 09:00:00', monto: 11600 }),
        record(b, 1, { monto: 2320 }),
        record(r, 0, { cancelado: '2025-06-10 18:00:00', monto: 0, efecto: 'P' }),
        record(m, 1, { fecha: '2025-05-15 10:00:00', monto: 1160 }),
        `${newUuid()}~${ME.rfc}~x`,
      ),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.message).toBe('3 updated, 0 unchanged, 1 missing XML, 1 invalid');
    expect(body.data.files[0].lines).toEqual([
      { line: 2, uuid: a, status: 'updated', estatus_sat: 'cancelado' },
      { line: 3, uuid: b, status: 'updated', estatus_sat: 'vigente' },
      { line: 4, uuid: r, status: 'updated', estatus_sat: 'cancelado' },
      { line: 5, uuid: m, status: 'missing_xml', estatus_sat: 'vigente' },
      expect.objectContaining({ line: 6, status: 'invalid', detail: '3 fields where the header names 12' }),
    ]);

    const after = await may(u, p.id);
    // A leaves the accrual side: B + C = 2,320 + 5,800.
    expect(after.ingresos).toMatchObject({ documentos: 2, total: 2320 + 5800, iva_trasladado: 320 + 800 });
    // A's 11,600 and R's 2,900 leave the cash: B alone.
    expect(after.flujo.cobrado).toMatchObject({ total: 2320, iva_trasladado: 320 });
    // C was never paid by a complement that stands: its whole 5,800 is pending.
    expect(after.pendientes.por_cobrar).toEqual({ documentos: 1, saldo: 5800 });
    expect(after.advertencias).toEqual(
      expect.arrayContaining([
        // C alone was never checked (A and R cancelado, B vigente).
        '1 CFDI del periodo con estatus ante el SAT desconocido: suba los metadatos del SAT (POST /api/profiles/{id}/sat-metadata) para saber si alguno está cancelado',
        '1 CFDI vigentes del periodo según los metadatos del SAT no tienen su XML en Folio y no se cuentan (GET /api/profiles/{id}/sat-metadata/missing)',
        `CFDI ${r} se canceló el 2025-06-10, después de cerrado el periodo: si ya presentó la declaración, presente una complementaria`,
      ]),
    );
    // A was cancelled in May itself: no complementaria for it.
    expect(after.advertencias.join('\n')).not.toContain(`CFDI ${a} se canceló`);
    expect((await invoice(u, cId)).estadoPago).toMatchObject({
      estado: 'NO_PAGADO',
      totalPagado: 0,
      saldoPendiente: 5800,
    });

    // The listing shows each status and filters by it (REST and tRPC).
    const cancelled = await getJson(t, u, `/api/invoices?profileId=${p.id}&estatus_sat=cancelado`);
    expect(cancelled.data.map((i: { uuid: string }) => i.uuid).sort()).toEqual([a, r].sort());
    expect(cancelled.data.find((i: { uuid: string }) => i.uuid === a)).toMatchObject({
      estatus_sat: 'cancelado',
      estatus_fuente: 'metadata',
      fecha_cancelacion: '2025-05-25T09:00:00',
    });
    const vigentes = await caller(t, u.token).invoices.list({
      profileId: p.id,
      estatus_sat: 'vigente',
      page: 1,
      limit: 50,
    });
    expect(vigentes.data.map((i) => i.uuid)).toEqual([b]);
    expect(vigentes.data[0]).toMatchObject({ estatus_sat: 'vigente', estatus_fuente: 'metadata' });

    // The missing XML: May lists M; June nothing (REST and tRPC).
    const missing = await getJson(t, u, `/api/profiles/${p.id}/sat-metadata/missing?año=2025&mes=5`);
    expect(missing.data).toEqual([
      {
        uuid: m,
        rfc_emisor: ME.rfc,
        nombre_emisor: ME.nombre,
        rfc_receptor: CLIENT.rfc,
        nombre_receptor: CLIENT.nombre,
        fecha: '2025-05-15T10:00:00',
        monto: 1160,
        efecto: 'I',
        estatus: 'vigente',
        fecha_cancelacion: null,
      },
    ]);
    expect(
      (await caller(t, u.token).satMetadata.missing({ profileId: p.id, año: 2025, mes: 6 })).data,
    ).toEqual([]);

    // Its XML imported later: no longer missing, and it takes SAT's word from the metadata.
    const mId = await imported(t, u, p.id, sale(m, '2025-05-15T10:00:00', 1000));
    expect(
      (await caller(t, u.token).satMetadata.missing({ profileId: p.id, año: 2025, mes: 5 })).data,
    ).toEqual([]);
    expect(await invoice(u, mId)).toMatchObject({ estatus_sat: 'vigente', estatus_fuente: 'metadata' });
  });

  it("SAT's cancelado is final: a later file saying 1 leaves it cancelled, and the user cannot mark it vigente (409)", async () => {
    const { u, p } = await profileOfMe(t);
    const a = newUuid();
    const id = await imported(t, u, p.id, sale(a, '2025-05-05T10:00:00', 1000));
    const api = caller(t, u.token);
    const first = await api.satMetadata.import({
      profileId: p.id,
      files: [
        { name: 'enero.txt', content: metadataFile(record(a, 0, { cancelado: '2025-05-20 10:00:00' })) },
      ],
    });
    expect(first.data.updated).toBe(1);
    const later = await api.satMetadata.import({
      profileId: p.id,
      files: [{ name: 'febrero.txt', content: metadataFile(record(a, 1)) }],
    });
    expect(later.data.files[0]!.lines).toEqual([
      {
        line: 2,
        uuid: a,
        status: 'unchanged',
        estatus_sat: 'vigente',
        detail: 'SAT already reported it cancelado: a cancellation is final',
      },
    ]);
    expect(await invoice(u, id)).toMatchObject({
      estatus_sat: 'cancelado',
      fecha_cancelacion: '2025-05-20T10:00:00',
    });
    const res = await request(t, 'PATCH', `/api/invoices/${id}`, {
      headers: bearer(u.token),
      body: { estatus_sat: 'vigente' },
    });
    expect(await expectError(res, 409, 'Conflict')).toBe(
      'SAT reported this CFDI cancelado on 2025-05-20T10:00:00 (metadata): a cancellation SAT reported is final and cannot be changed',
    );
    expect((await may(u, p.id)).ingresos.documentos).toBe(0);
  });

  it('reads a ZIP as the portal hands it: columns by header name (PacCertifico), a stray LF folded into its field, the _tercero file left out, bad lines answered', async () => {
    const { u, p } = await profileOfMe(t);
    const [a, b] = [newUuid(), newUuid()];
    const aId = await imported(t, u, p.id, sale(a, '2025-05-05T10:00:00', 1000));
    // The columns in another order, RfcPac named PacCertifico; B's issuer name holds a stray LF.
    const own = [
      'Uuid~RfcEmisor~NombreEmisor~RfcReceptor~NombreReceptor~PacCertifico~FechaEmision~Monto~EfectoComprobante~FechaCancelacion~Estatus',
      `${a}~${ME.rfc}~${ME.nombre}~${CLIENT.rfc}~${CLIENT.nombre}~SAT970701NN3~2025-05-05 10:00:00~1160.00~I~2025-05-28 11:00:00~0`,
      `${b}~${SUPPLIER.rfc}~Escuela\nKemper~${ME.rfc}~${ME.nombre}~SAT970701NN3~2025-05-09 10:00:00~580.00~I~~1`,
      `${newUuid()}~${ME.rfc}~x~${CLIENT.rfc}~y~SAT970701NN3~2025-05-09 10:00:00~1.00~I~~7`,
      `${newUuid()}~AAA010101AAA~Otro~BBB010101BBB~Otro~SAT970701NN3~2025-05-09 10:00:00~1.00~I~~1`,
      '',
    ].join('\r\n');
    const tercero = `Uuid~RfcACuentaTerceros~NombreACuentaTerceros\r\n${newUuid()}~XAXX010101000~Tercero\r\n`;
    const zip = zipSync({ 'metadatos.txt': strToU8(own), 'metadatos_tercero.txt': strToU8(tercero) });
    const form = new FormData();
    form.append('files', new File([zip], 'descarga.zip'));
    const res = await t.app.request(`/api/profiles/${p.id}/sat-metadata`, {
      method: 'POST',
      headers: bearer(u.token),
      body: form,
    });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({ updated: 1, unchanged: 0, missing_xml: 1, invalid: 2 });
    expect(data.files).toEqual([
      {
        name: 'descarga.zip/metadatos.txt',
        lines: [
          { line: 2, uuid: a, status: 'updated', estatus_sat: 'cancelado' },
          // B's record spans lines 3 and 4 of the file: one record, not two.
          { line: 3, uuid: b, status: 'missing_xml', estatus_sat: 'vigente' },
          expect.objectContaining({
            line: 5,
            status: 'invalid',
            detail: 'Estatus "7" is neither 1 (vigente) nor 0 (cancelado)',
          }),
          expect.objectContaining({
            line: 6,
            status: 'invalid',
            detail: "neither RfcEmisor (AAA010101AAA) nor RfcReceptor (BBB010101BBB) is this profile's RFC",
          }),
        ],
      },
      {
        name: 'descarga.zip/metadatos_tercero.txt',
        skipped: "a third party's file (_tercero.txt), not the profile's metadata",
        lines: [],
      },
    ]);
    expect(await invoice(u, aId)).toMatchObject({
      estatus_sat: 'cancelado',
      fecha_cancelacion: '2025-05-28T11:00:00',
    });
    const missing = await getJson(t, u, `/api/profiles/${p.id}/sat-metadata/missing?año=2025`);
    expect(missing.data).toEqual([
      expect.objectContaining({ uuid: b, nombre_emisor: 'Escuela Kemper', rfc_emisor: SUPPLIER.rfc }),
    ]);
  });

  it('a file without the Uuid, Estatus and FechaCancelacion columns is refused whole; another user gets 403 and nothing changes', async () => {
    const { u, p } = await profileOfMe(t);
    const other = await profileOfMe(t);
    const a = newUuid();
    const id = await imported(t, u, p.id, sale(a, '2025-05-05T10:00:00', 1000));
    const res = await postMetadata(u, p.id, `Uuid~Estatus\r\n${a}~0\r\n`);
    expect((await res.json()).data.files).toEqual([
      {
        name: 'metadata.txt',
        error: 'not a SAT metadata file: the header lacks FechaCancelacion',
        lines: [],
      },
    ]);
    const intruder = await postMetadata(
      other.u,
      p.id,
      metadataFile(record(a, 0, { cancelado: '2025-05-20 10:00:00' })),
    );
    await expectError(intruder, 403, 'Forbidden');
    expect(await invoice(u, id)).toMatchObject({ estatus_sat: 'desconocido' });
  });
  it("follows the CFDI upload's plan rules but spends no CFDI quota: past a FREE plan's 50 a month it still reads; a frozen profile 403", async () => {
    const { u, p } = await profileOfMe(t, null);
    const a = newUuid();
    const id = await imported(t, u, p.id, sale(a, '2025-05-05T10:00:00', 1000));
    const key = { userId: u.id, kind: 'cfdi_import', period: quotaPeriod() };
    // One CFDI imported above; the other 49 of the FREE plan's 50 taken.
    await addUsage(t.handle.db, key, 49);
    await expectError(
      await uploadXml(t, u, p.id, sale(newUuid(), '2025-05-06T10:00:00', 1)),
      429,
      'Too Many Requests',
    );
    const res = await postMetadata(u, p.id, metadataFile(record(a, 0, { cancelado: '2025-05-20 10:00:00' })));
    expect((await res.json()).data.updated).toBe(1);
    expect(await usedQuota(t.handle.db, key)).toBe(50);
    expect(await invoice(u, id)).toMatchObject({ estatus_sat: 'cancelado' });
    await t.handle.db
      .update(profiles)
      .set({ frozen: true, frozenReason: 'PLAN_LIMIT', frozenAt: new Date() })
      .where(eq(profiles.id, p.id));
    await expectError(await postMetadata(u, p.id, metadataFile(record(a, 1))), 403, 'Forbidden');
  });
});

describe("the user's own mark (PATCH /api/invoices/{id}, /api/expenses/{id})", () => {
  it('cancel and back: the invoice leaves the report and returns; the expense the same through the tRPC caller', async () => {
    const { u, p } = await profileOfMe(t);
    const a = newUuid();
    // A 3,000 + IVA 480 = 3,480 sale and a 1,000 + 160 = 1,160 purchase, both PUE in May.
    const id = await imported(t, u, p.id, sale(a, '2025-05-08T10:00:00', 3000));
    const x = newUuid();
    const xId = await imported(
      t,
      u,
      p.id,
      invoiceXml({
        uuid: x,
        emisor: SUPPLIER,
        receptor: ME,
        fecha: '2025-05-09T10:00:00',
        conceptos: [{ descripcion: 'Curso', importe: 1000 }],
      }),
    );
    const egresos = async () =>
      (await getJson(t, u, `/api/reports/monthly?profileId=${p.id}&año=2025&mes=5`)).data.egresos.total;
    expect((await may(u, p.id)).ingresos.total).toBe(3480);
    expect(await egresos()).toBe(1160);

    const res = await request(t, 'PATCH', `/api/invoices/${id}`, {
      headers: bearer(u.token),
      body: { estatus_sat: 'cancelado', fecha_cancelacion: '2025-05-30' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      message: 'Marked cancelado',
      data: { uuid: a, estatus_sat: 'cancelado', estatus_fuente: 'usuario', fecha_cancelacion: '2025-05-30' },
    });
    expect((await may(u, p.id)).ingresos).toMatchObject({ documentos: 0, total: 0 });
    // The export takes the listing's filter and says the status in its own columns.
    const csv = await (
      await request(t, 'GET', `/api/invoices/export?profileId=${p.id}&format=csv&estatus_sat=cancelado`, {
        headers: bearer(u.token),
      })
    ).text();
    const [head, row, ...none] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(none).toEqual([]);
    const cell = (name: string) => row!.split(',')[head!.split(',').indexOf(name)];
    expect([cell('UUID'), cell('Estatus SAT'), cell('Fecha de cancelación')]).toEqual([
      a,
      'cancelado',
      '2025-05-30',
    ]);

    const back = await request(t, 'PATCH', `/api/invoices/${id}`, {
      headers: bearer(u.token),
      body: { estatus_sat: 'vigente' },
    });
    expect((await back.json()).data).toMatchObject({ estatus_sat: 'vigente', estatus_fuente: 'usuario' });
    expect((await invoice(u, id)).fecha_cancelacion).toBeUndefined();
    expect((await may(u, p.id)).ingresos.total).toBe(3480);

    const api = caller(t, u.token);
    const marked = await api.expenses.update({
      id: xId,
      estatus_sat: 'cancelado',
      fecha_cancelacion: '2025-05-31',
    });
    expect(marked.data).toMatchObject({
      uuid: x,
      tipo_origen: 'XML',
      estatus_sat: 'cancelado',
      estatus_fuente: 'usuario',
    });
    expect(await egresos()).toBe(0);
    const listed = await api.expenses.list({ profileId: p.id, estatus_sat: 'cancelado', page: 1, limit: 20 });
    expect(listed.data.map((e) => e.uuid)).toEqual([x]);
    await api.expenses.update({ id: xId, estatus_sat: 'vigente' });
    expect(await egresos()).toBe(1160);
  });

  it('is refused as the other id routes refuse: someone else’s CFDI 403 (as its GET), an expense through /invoices 404, a cancel without its date 400; nothing changes', async () => {
    const { u, p } = await profileOfMe(t);
    const other = await profileOfMe(t);
    const id = await imported(t, u, p.id, sale(newUuid(), '2025-05-08T10:00:00', 3000));
    const patch = (who: TestUser, path: string, body: unknown) =>
      request(t, 'PATCH', path, { headers: bearer(who.token), body });
    const cancel = { estatus_sat: 'cancelado', fecha_cancelacion: '2025-05-30' };
    const get = await request(t, 'GET', `/api/invoices/${id}`, { headers: bearer(other.u.token) });
    const asGet = await expectError(get, 403, 'Forbidden');
    expect(await expectError(await patch(other.u, `/api/invoices/${id}`, cancel), 403, 'Forbidden')).toBe(
      asGet,
    );
    expect(await expectError(await patch(other.u, `/api/expenses/${id}`, cancel), 403, 'Forbidden')).toBe(
      asGet,
    );
    await expectError(await patch(u, `/api/expenses/${id}`, cancel), 404, 'Not Found');
    expect(
      await expectError(
        await patch(u, `/api/invoices/${id}`, { estatus_sat: 'cancelado' }),
        400,
        'Bad Request',
      ),
    ).toBe('fecha_cancelacion is required to mark a CFDI cancelado');
    await expectError(
      await patch(u, `/api/invoices/${id}`, { ...cancel, fecha_cancelacion: '2025-05-01' }),
      400,
      'Bad Request',
    );
    await expect(
      caller(t, other.u.token).invoices.update({
        id,
        estatus_sat: 'cancelado',
        fecha_cancelacion: '2025-05-30',
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await invoice(u, id)).toMatchObject({ estatus_sat: 'desconocido' });
  });

  it("a cancelled invoice's payments and credit notes leave the cash and each gets an advertencia", async () => {
    const { u, p } = await profileOfMe(t);
    const d = newUuid();
    // D: PPD 5,000 + 800 = 5,800; R pays 1,000 on May 20; N credits 1,000 + 160 = 1,160 on June 3.
    const dId = await imported(t, u, p.id, sale(d, '2025-05-07T10:00:00', 5000, { metodoPago: 'PPD' }));
    const r = newUuid();
    await imported(t, u, p.id, rep(d, '2025-05-20T12:00:00', 5800, 1000, { uuid: r }));
    const n = newUuid();
    await imported(
      t,
      u,
      p.id,
      sale(n, '2025-06-03T10:00:00', 1000, {
        tipoDeComprobante: 'E',
        relacionados: [{ tipoRelacion: '01', uuids: [d] }],
      }),
    );
    expect((await may(u, p.id)).flujo.cobrado.total).toBe(1000);
    await caller(t, u.token).invoices.update({
      id: dId,
      estatus_sat: 'cancelado',
      fecha_cancelacion: '2025-05-25',
    });
    const after = await may(u, p.id);
    // D's 1,000 collected no longer counts, nor D itself.
    expect(after.flujo.cobrado.total).toBe(0);
    expect(after.ingresos).toMatchObject({ documentos: 0, total: 0 });
    const abono = (of: string) =>
      `CFDI ${d} está cancelado y ${of} (pago o nota de crédito) sigue vigente: no se cuenta; cancélelo o emítalo de nuevo contra el CFDI que lo sustituye`;
    expect(after.advertencias).toContain(abono(r));
    const june = (await getJson(t, u, `/api/reports/monthly?profileId=${p.id}&año=2025&mes=6`)).data;
    expect(june.advertencias).toContain(abono(n));
    expect((await invoice(u, dId)).validacion.advertencias).toContain(
      'CFDI cancelado con 1 pago(s) y 1 nota(s) de crédito vigentes: no cuentan en los reportes; cancélelos o emítalos de nuevo relacionados con el CFDI que lo sustituye',
    );
  });
});

describe('substitution (CfdiRelacionados TipoRelacion 04, same issuer)', () => {
  /** The original O (10,000 + 1,600 = 11,600) and its substitute S (12,000 + 1,920 = 13,920), both May. */
  const pair = () => {
    const [o, s] = [newUuid(), newUuid()];
    return {
      o,
      s,
      original: sale(o, '2025-05-10T10:00:00', 10000),
      substitute: sale(s, '2025-05-12T10:00:00', 12000, {
        relacionados: [{ tipoRelacion: '04', uuids: [o] }],
      }),
    };
  };

  it.each([
    ['the original first', false],
    ['the substitute first', true],
  ])(
    'of an invoice (%s): the original is presumed cancelled and only the substitute counts, naming both',
    async (_, reversed) => {
      const { u, p } = await profileOfMe(t);
      const { o, s, original, substitute } = pair();
      const files = reversed ? [substitute, original] : [original, substitute];
      const ids = [];
      for (const xml of files) ids.push(await imported(t, u, p.id, xml));
      const oId = reversed ? ids[1]! : ids[0]!;
      expect(await invoice(u, oId)).toMatchObject({
        estatus_sat: 'cancelado',
        estatus_fuente: 'sustitucion',
        fecha_cancelacion: '2025-05-12T10:00:00',
      });
      const report = await may(u, p.id);
      expect(report.ingresos).toMatchObject({ documentos: 1, total: 13920 });
      expect(report.advertencias).toContain(
        `CFDI ${o} se presume cancelado: lo sustituye ${s} (TipoRelacion 04); no se cuenta`,
      );

      // SAT says the original is still vigente: both count (11,600 + 13,920), and the user is told to cancel it.
      await postMetadata(u, p.id, metadataFile(record(o, 1, { monto: 11600 })));
      const both = await may(u, p.id);
      expect(both.ingresos).toMatchObject({ documentos: 2, total: 11600 + 13920 });
      expect(both.advertencias).toContain(
        `CFDI ${o} sigue vigente aunque ${s} lo sustituye (TipoRelacion 04): ambos se cuentan; cancele ${o} con motivo 01`,
      );
    },
  );

  it('by another issuer is no substitution: both count', async () => {
    const { u, p } = await profileOfMe(t);
    const o = newUuid();
    await imported(
      t,
      u,
      p.id,
      invoiceXml({ uuid: o, emisor: SUPPLIER, receptor: ME, fecha: '2025-05-10T10:00:00' }),
    );
    const oId = (await caller(t, u.token).expenses.list({ profileId: p.id, page: 1, limit: 20 })).data[0]!.id;
    await imported(
      t,
      u,
      p.id,
      sale(newUuid(), '2025-05-12T10:00:00', 1000, { relacionados: [{ tipoRelacion: '04', uuids: [o] }] }),
    );
    expect((await caller(t, u.token).invoices.get({ id: oId })).estatus_sat).toBe('desconocido');
  });

  it.each([
    ['the original first', false],
    ['the substitute first', true],
  ])(
    'of a payment complement (%s): the invoice is paid once, and the cash counts once',
    async (_, reversed) => {
      const { u, p } = await profileOfMe(t);
      const c = newUuid();
      // C: PPD 5,000 + 800 = 5,800. R1 pays 2,900 on May 20; R2 substitutes R1 (the same payment).
      const cId = await imported(t, u, p.id, sale(c, '2025-05-07T10:00:00', 5000, { metodoPago: 'PPD' }));
      const r1 = newUuid();
      const first = rep(c, '2025-05-20T12:00:00', 5800, 2900, { uuid: r1 });
      const second = rep(c, '2025-05-20T12:00:00', 5800, 2900, {
        relacionados: [{ tipoRelacion: '04', uuids: [r1] }],
      });
      for (const xml of reversed ? [second, first] : [first, second]) await uploadXml(t, u, p.id, xml);
      expect((await invoice(u, cId)).estadoPago).toMatchObject({
        totalPagado: 2900,
        saldoPendiente: 5800 - 2900,
      });
      const report = await may(u, p.id);
      // 2,900 collected once; its IVA 2,900 × 800 / 5,800 = 400.
      expect(report.flujo.cobrado).toMatchObject({ total: 2900, iva_trasladado: 400 });
      expect(report.pendientes.por_cobrar.saldo).toBe(2900);
    },
  );

  it('stored before the SAT status existed, is presumed by the back-fill, and the same report comes out as from a fresh import', async () => {
    const { u, p } = await profileOfMe(t);
    const { o, s, original, substitute } = pair();
    const oId = await imported(t, u, p.id, original);
    await imported(t, u, p.id, substitute);
    const fresh = await may(u, p.id);
    // As the rows were before the migration: every status unknown, no source.
    await t.handle.db
      .update(cfdis)
      .set({ estatusSat: 'desconocido', estatusFuente: null, fechaCancelacion: null, estatusFecha: null })
      .where(eq(cfdis.profileId, p.id));
    // Unpresumed, both count: 11,600 + 13,920.
    expect((await may(u, p.id)).ingresos.total).toBe(11600 + 13920);
    expect(await backfillSubstitutions(t.handle.db)).toBeGreaterThanOrEqual(1);
    expect(await invoice(u, oId)).toMatchObject({ estatus_sat: 'cancelado', estatus_fuente: 'sustitucion' });
    expect(await may(u, p.id)).toEqual(fresh);
    expect(fresh.ingresos.total).toBe(13920);
    // Idempotent: nothing left to presume for this profile.
    await backfillSubstitutions(t.handle.db);
    expect((await may(u, p.id)).advertencias).toContain(
      `CFDI ${o} se presume cancelado: lo sustituye ${s} (TipoRelacion 04); no se cuenta`,
    );
  });
});
