import { invoiceXml, newUuid, type Party, paymentXml } from '@folio/cfdi/testing';
import { cfdis, paymentApplications, profiles } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  caller,
  createProfile,
  expectError,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
  uploadFiles,
  uploadXml,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ME: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '601' };
const CLIENT: Party = { rfc: 'COSC8001137NA', nombre: 'Carlos Cortés Soto', regimen: '612' };

async function setup(plan: 'BASIC' | 'PRO' | null = 'PRO', flags?: Record<string, boolean>) {
  const u = await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  const p = await createProfile(t, u, {
    nombre: ME.nombre,
    rfc: ME.rfc,
    tipo_persona: 'MORAL',
    regimenes_fiscales: ['601'],
    ...(flags ? { validaciones_habilitadas: flags } : {}),
  });
  return { u, p };
}

const sale = (uuid: string, extra: Partial<Parameters<typeof invoiceXml>[0]> = {}) =>
  invoiceXml({
    uuid,
    emisor: ME,
    receptor: CLIENT,
    fecha: '2025-03-10T10:00:00',
    metodoPago: 'PPD',
    ...extra,
  });
const repFor = (
  uuid: string,
  docs: { numParcialidad: number; impSaldoAnt: number; impPagado: number; monedaDR?: string }[],
  fechaPago = '2025-03-20T12:00:00',
) =>
  paymentXml({
    uuid: newUuid(),
    emisor: ME,
    receptor: CLIENT,
    fecha: fechaPago,
    pagos: [{ fechaPago, doctos: docs.map((d) => ({ uuid, ...d })) }],
  });

async function imported(u: TestUser, profileId: string, xml: string) {
  const res = await uploadXml(t, u, profileId, xml);
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.data.files[0].id as string;
}
const get = async (u: TestUser, id: string) =>
  (await request(t, 'GET', `/api/invoices/${id}`, { headers: bearer(u.token) })).json();

describe('payment status follows the complements', () => {
  it('a complement imported before its invoice is kept and applied when the invoice arrives', async () => {
    const { u, p } = await setup();
    const uuid = newUuid();
    await imported(u, p.id, repFor(uuid, [{ numParcialidad: 1, impSaldoAnt: 1160, impPagado: 1160 }]));
    expect(
      await t.handle.db.select().from(paymentApplications).where(eq(paymentApplications.relatedUuid, uuid)),
    ).toHaveLength(1);
    const id = await imported(u, p.id, sale(uuid));
    expect((await get(u, id)).estadoPago).toMatchObject({
      estado: 'PAGADO',
      totalPagado: 1160,
      ultimoSaldoInsoluto: 0,
      tieneComplementos: true,
    });
  });

  it('ends paid whichever commits first when an invoice and its complement arrive at the same time', async () => {
    const { u, p } = await setup();
    const pairs = Array.from({ length: 8 }, () => newUuid());
    await Promise.all(
      pairs.flatMap((uuid) => [
        uploadXml(t, u, p.id, sale(uuid)),
        uploadXml(t, u, p.id, repFor(uuid, [{ numParcialidad: 1, impSaldoAnt: 1160, impPagado: 1160 }])),
      ]),
    );
    const rows = await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, p.id));
    const invoices = rows.filter((r) => r.tipo === 'PPD');
    expect(invoices).toHaveLength(8);
    expect(invoices.map((r) => (r.estadoPago as { estado: string }).estado)).toEqual(Array(8).fill('PAGADO'));
  });

  it('two partial complements, then the settling one: NO_PAGADO → PAGO_PARCIAL → PAGADO', async () => {
    const { u, p } = await setup();
    const uuid = newUuid();
    const id = await imported(u, p.id, sale(uuid));
    expect((await get(u, id)).estadoPago.estado).toBe('NO_PAGADO');
    await imported(u, p.id, repFor(uuid, [{ numParcialidad: 1, impSaldoAnt: 1160, impPagado: 400 }]));
    expect((await get(u, id)).estadoPago).toMatchObject({
      estado: 'PAGO_PARCIAL',
      totalPagado: 400,
      saldoPendiente: 760,
      porcentajePagado: 34.48,
      ultimoSaldoInsoluto: 760,
    });
    await imported(
      u,
      p.id,
      repFor(uuid, [{ numParcialidad: 2, impSaldoAnt: 760, impPagado: 360 }], '2025-04-20T12:00:00'),
    );
    expect((await get(u, id)).estadoPago).toMatchObject({
      estado: 'PAGO_PARCIAL',
      totalPagado: 760,
      ultimoSaldoInsoluto: 400,
    });
    await imported(
      u,
      p.id,
      repFor(uuid, [{ numParcialidad: 3, impSaldoAnt: 400, impPagado: 400 }], '2025-05-20T12:00:00'),
    );
    const done = await get(u, id);
    expect(done.estadoPago).toMatchObject({
      estado: 'PAGADO',
      completamentePagado: true,
      porcentajePagado: 100,
      ultimoSaldoInsoluto: 0,
    });
    expect(done.pagos.map((x: { monto: number }) => x.monto)).toEqual([400, 360, 400]);
    expect(done.validacion.advertencias, 'a clean run of installments warns about nothing').toEqual([]);
  });

  it('warns about a gap in the installments and about overpayment', async () => {
    const { u, p } = await setup();
    const uuid = newUuid();
    const id = await imported(u, p.id, sale(uuid));
    await imported(u, p.id, repFor(uuid, [{ numParcialidad: 1, impSaldoAnt: 1160, impPagado: 1160 }]));
    await imported(
      u,
      p.id,
      repFor(uuid, [{ numParcialidad: 3, impSaldoAnt: 1160, impPagado: 1160 }], '2025-04-01T09:00:00'),
    );
    const inv = await get(u, id);
    expect(inv.estadoPago.estado).toBe('PAGADO');
    expect(inv.validacion.advertencias.join(' | ')).toMatch(/parcialidad/i);
    expect(inv.validacion.advertencias.join(' | ')).toMatch(/sobrepago|excede|overpay/i);
  });

  it('does not add a complement paid in another currency, and says why', async () => {
    const { u, p } = await setup();
    const uuid = newUuid();
    const id = await imported(u, p.id, sale(uuid));
    await imported(
      u,
      p.id,
      repFor(uuid, [{ numParcialidad: 1, impSaldoAnt: 1160, impPagado: 1160, monedaDR: 'USD' }]),
    );
    const inv = await get(u, id);
    expect(inv.estadoPago).toMatchObject({ estado: 'NO_PAGADO', totalPagado: 0 });
    expect(inv.validacion.advertencias.join(' ')).toMatch(/USD/);
  });

  it('records manual payments (201) and recomputes: partial, then paid', async () => {
    const { u, p } = await setup();
    const id = await imported(u, p.id, sale(newUuid()));
    const pay = (body: object) =>
      request(t, 'POST', `/api/invoices/${id}/payments`, { headers: bearer(u.token), body });
    const first = await pay({
      fechaPago: '2025-03-15',
      formaPago: '03',
      monedaPago: 'MXN',
      monto: 160,
      numOperacion: 'SPEI-1',
    });
    expect(first.status).toBe(201);
    expect((await first.json()).data.estadoPago).toMatchObject({
      estado: 'PAGO_PARCIAL',
      totalPagado: 160,
      tienePagosManuales: true,
    });
    const second = await (
      await pay({ fechaPago: '2025-03-30', formaPago: '01', monedaPago: 'MXN', monto: 1000 })
    ).json();
    expect(second.data.estadoPago).toMatchObject({ estado: 'PAGADO', completamentePagado: true });
    expect(second.data.pagos).toEqual([
      { fechaPago: '2025-03-15', formaPago: '03', monedaPago: 'MXN', monto: 160, numOperacion: 'SPEI-1' },
      { fechaPago: '2025-03-30', formaPago: '01', monedaPago: 'MXN', monto: 1000 },
    ]);
    for (const bad of [
      {},
      { fechaPago: '2025-02-30', formaPago: '03', monedaPago: 'MXN', monto: 1 },
      { fechaPago: '2025-03-01', formaPago: '03', monedaPago: 'MXN', monto: -5 },
    ]) {
      await expectError(await pay(bad), 400, 'Bad Request');
    }
    const stranger = await signUp(t);
    const foreign = await request(t, 'POST', `/api/invoices/${id}/payments`, {
      headers: bearer(stranger.token),
      body: { fechaPago: '2025-03-01', formaPago: '03', monedaPago: 'MXN', monto: 1 },
    });
    await expectError(foreign, 403, 'Forbidden');
  });
});

describe('validation flags', () => {
  const other: Party = { rfc: 'ABC970701NN4', nombre: 'Comercial ABC', regimen: '626' };

  it('a regime the profile does not have is a warning by default, an error (stored, valido false) when blocking', async () => {
    const warn = await setup();
    const w = await get(warn.u, await imported(warn.u, warn.p.id, sale(newUuid(), { emisor: other })));
    expect(w.validacion).toMatchObject({ regimenFiscalVerificado: false, valido: true, errores: [] });
    expect(w.validacion.advertencias.join(' ')).toMatch(/626/);
    const block = await setup('PRO', { bloquearSiRegimenNoCoincide: true });
    const b = await get(block.u, await imported(block.u, block.p.id, sale(newUuid(), { emisor: other })));
    expect(b.validacion).toMatchObject({ regimenFiscalVerificado: false, valido: false });
    expect(b.validacion.errores.join(' ')).toMatch(/626/);
  });

  it('checks nothing about the regime when validarRegimenFiscal is off', async () => {
    const { u, p } = await setup('PRO', { validarRegimenFiscal: false });
    const v = (await get(u, await imported(u, p.id, sale(newUuid(), { emisor: other })))).validacion;
    expect(v).toMatchObject({ regimenFiscalVerificado: false, errores: [], valido: true });
    expect(v.advertencias.join(' ')).not.toMatch(/no está entre los del perfil/);
  });

  it('verifies the RFC only while validarRFCIngresos / validarRFCGastos are on', async () => {
    const on = await setup();
    expect((await get(on.u, await imported(on.u, on.p.id, sale(newUuid())))).validacion.rfcVerificado).toBe(
      true,
    );
    const off = await setup('PRO', { validarRFCIngresos: false });
    expect(
      (await get(off.u, await imported(off.u, off.p.id, sale(newUuid())))).validacion.rfcVerificado,
    ).toBe(false);
  });

  it('flags a UUID another profile of the account holds only while validarUUIDDuplicado is on', async () => {
    for (const [flag, expected] of [
      [true, true],
      [false, false],
    ] as const) {
      const { u, p } = await setup('PRO', { validarUUIDDuplicado: flag });
      const client = await createProfile(t, u, {
        nombre: 'Cliente',
        rfc: CLIENT.rfc,
        tipo_persona: 'FISICA',
        regimenes_fiscales: ['612'],
        validaciones_habilitadas: { validarUUIDDuplicado: flag },
      });
      const uuid = newUuid();
      await imported(u, p.id, sale(uuid));
      const res = await uploadXml(t, u, client.id, sale(uuid));
      const file = (await res.json()).data.files[0];
      expect(file).toMatchObject({ status: 'imported', kind: 'expense' });
      expect((await get(u, file.id)).validacion.uuidDuplicado).toBe(expected);
    }
  });
});

describe('POST /api/profiles/{profileId}/cfdi', () => {
  it('answers a duplicate UUID in the profile with "duplicate" and stores nothing new', async () => {
    const { u, p } = await setup();
    const xml = sale(newUuid());
    const first = await imported(u, p.id, xml);
    const again = await uploadXml(t, u, p.id, xml);
    expect(again.status).toBe(200);
    expect((await again.json()).data).toMatchObject({
      imported: 0,
      duplicates: 1,
      files: [{ status: 'duplicate', id: first }],
    });
    expect(await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, p.id))).toHaveLength(1);
  });

  it('imports many files and ZIPs in one multipart request, each on its own: a malformed one does not stop the rest', async () => {
    const { u, p } = await setup();
    const zip = zipSync({
      'enero/a.xml': strToU8(sale(newUuid())),
      'enero/b.xml': strToU8(sale(newUuid())),
      'enero/roto.xml': strToU8('<cfdi:Comprobante Version="4.0"><sin cerrar'),
      'notas.txt': strToU8('hola'),
      '__MACOSX/._a.xml': strToU8('junk'),
    });
    const dup = sale(newUuid());
    const res = await uploadFiles(t, u, p.id, [
      { name: 'lote.zip', content: Buffer.from(zip) },
      { name: 'suelta.xml', content: dup },
      { name: 'repetida.xml', content: dup },
      { name: 'foto.png', content: 'png' },
    ]);
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toMatchObject({ imported: 3, duplicates: 1, rejected: 3 });
    const byName = Object.fromEntries(data.files.map((f: { name: string }) => [f.name, f]));
    expect(byName['lote.zip/enero/roto.xml']).toMatchObject({
      status: 'rejected',
      error: expect.stringMatching(/mal formado/i),
    });
    expect(byName['lote.zip/notas.txt']).toMatchObject({ status: 'rejected' });
    expect(byName['foto.png']).toMatchObject({ status: 'rejected' });
    expect(byName['repetida.xml']).toMatchObject({ status: 'duplicate' });
    expect(Object.keys(byName)).not.toContain('lote.zip/__MACOSX/._a.xml');
    expect(await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, p.id))).toHaveLength(3);
  });

  it('refuses a ZIP with more than 5,000 entries with 413 before storing anything', async () => {
    const { u, p } = await setup();
    const files: Record<string, Uint8Array> = { 'real.xml': strToU8(sale(newUuid())) };
    for (let i = 0; i < 5000; i++) files[`x${i}.xml`] = strToU8('x');
    const res = await uploadFiles(t, u, p.id, [
      { name: 'big.zip', content: Buffer.from(zipSync(files, { level: 0 })) },
    ]);
    await expectError(res, 413, 'Payload Too Large');
    expect(await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, p.id))).toHaveLength(0);
  });

  it('refuses a ZIP with a path-traversal name with 400 and stores nothing', async () => {
    const { u, p } = await setup();
    const zip = zipSync({
      'ok.xml': strToU8(sale(newUuid())),
      '../../etc/evil.xml': strToU8(sale(newUuid())),
    });
    const res = await uploadFiles(t, u, p.id, [{ name: 'evil.zip', content: Buffer.from(zip) }]);
    await expectError(res, 400, 'Bad Request');
    expect(await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, p.id))).toHaveLength(0);
  });

  it('rejects a ZIP-bomb entry (tiny compressed, over 5 MB expanded) without inflating it; the rest imports', async () => {
    const { u, p } = await setup();
    const zip = zipSync(
      { 'bomb.xml': new Uint8Array(50 * 1024 * 1024), 'good.xml': strToU8(sale(newUuid())) },
      { level: 9 },
    );
    expect(zip.byteLength).toBeLessThan(200 * 1024);
    const res = await uploadFiles(t, u, p.id, [{ name: 'bomb.zip', content: Buffer.from(zip) }]);
    const { data } = await res.json();
    expect(data).toMatchObject({ imported: 1, rejected: 1 });
    expect(data.files.find((f: { name: string }) => f.name === 'bomb.zip/bomb.xml')).toMatchObject({
      error: 'XML exceeds 5 MB',
    });
  });

  it('refuses documents with a DTD or entities (billion laughs, XXE)', async () => {
    const { u, p } = await setup();
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0">&lol2;</cfdi:Comprobante>`;
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>`;
    for (const xml of [laughs, xxe])
      expect(await expectError(await uploadXml(t, u, p.id, xml), 400, 'Bad Request')).toMatch(/DTD|DOCTYPE/i);
  });

  it('answers 413 for a single XML over 5 MB and 415 for another content type', async () => {
    const { u, p } = await setup();
    const big = `${sale(newUuid())}${' '.repeat(5 * 1024 * 1024)}`;
    await expectError(await uploadXml(t, u, p.id, big), 413, 'Payload Too Large');
    const res = await t.app.request(`/api/profiles/${p.id}/cfdi`, {
      method: 'POST',
      headers: { ...bearer(u.token), 'content-type': 'application/json' },
      body: '{}',
    });
    await expectError(res, 415, 'Unsupported Media Type');
  });

  it('takes one document as the raw body of POST …/cfdi/xml, whatever its content type, with the quota headers', async () => {
    const { u, p } = await setup();
    const xmlRoute = `/api/profiles/${p.id}/cfdi/xml`;
    for (const type of ['application/xml', 'application/octet-stream', undefined]) {
      const res = await t.app.request(xmlRoute, {
        method: 'POST',
        headers: { ...bearer(u.token), ...(type ? { 'content-type': type } : {}) },
        body: sale(newUuid()),
      });
      expect(res.status, String(type)).toBe(201);
      expect((await res.json()).data).toMatchObject({ imported: 1, files: [{ status: 'imported' }] });
      expect(res.headers.get('x-quota-limit')).toBeTruthy();
    }
    const big = `${sale(newUuid())}${' '.repeat(5 * 1024 * 1024)}`;
    const tooBig = await t.app.request(xmlRoute, { method: 'POST', headers: bearer(u.token), body: big });
    await expectError(tooBig, 413, 'Payload Too Large');
    const refused = await t.app.request(xmlRoute, {
      method: 'POST',
      headers: bearer(u.token),
      body: '<nota/>',
    });
    await expectError(refused, 400, 'Bad Request');
    const anonymous = await t.app.request(xmlRoute, { method: 'POST', body: sale(newUuid()) });
    await expectError(anonymous, 401, 'Unauthorized');
  });

  it('answers 401 without a token, 403 for a foreign or frozen profile, 404 for a missing one', async () => {
    const { u, p } = await setup();
    const xml = sale(newUuid());
    await expectError(
      await t.app.request(`/api/profiles/${p.id}/cfdi`, {
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body: xml,
      }),
      401,
      'Unauthorized',
    );
    const stranger = await signUp(t);
    await expectError(await uploadXml(t, stranger, p.id, xml), 403, 'Forbidden');
    await expectError(await uploadXml(t, u, 'missing', xml), 404, 'Not Found');
    await t.handle.db
      .update(profiles)
      .set({ frozen: true, frozenReason: 'PLAN_LIMIT', frozenAt: new Date() })
      .where(eq(profiles.id, p.id));
    await expectError(await uploadXml(t, u, p.id, xml), 403, 'Forbidden');
  });

  it('counts stored files against invoicesPerMonth: the batch reports the ones past it, a single file gets 429', async () => {
    const { u, p } = await setup(null);
    const files = Array.from({ length: 52 }, (_, i) => ({ name: `f${i}.xml`, content: sale(newUuid()) }));
    const res = await uploadFiles(t, u, p.id, files);
    const { data } = await res.json();
    expect(data).toMatchObject({ imported: 50, rejected: 2 });
    expect(data.files.at(-1)).toMatchObject({
      status: 'rejected',
      code: 'quota_exceeded',
      error: expect.stringMatching(/limit.*resets on \d{4}-\d\d-\d\dT/i),
    });
    expect(data.files.filter((f: { code?: string }) => f.code)).toHaveLength(2);
    const single = await uploadXml(t, u, p.id, sale(newUuid()));
    expect(Number(single.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectError(single, 429, 'Too Many Requests');
    expect(await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, p.id))).toHaveLength(50);
  });

  it('imports through tRPC cfdi.import with {profileId, files:[{name, content}]}', async () => {
    const { u, p } = await setup();
    const out = await caller(t, u.token).cfdi.import({
      profileId: p.id,
      files: [
        { name: 'a.xml', content: sale(newUuid()) },
        { name: 'b.xml', content: 'nope' },
      ],
    });
    expect(out.data).toMatchObject({ imported: 1, rejected: 1 });
  });

  it('deleting the profile removes its CFDI, complements and files', async () => {
    const { u, p } = await setup();
    const uuid = newUuid();
    await imported(u, p.id, sale(uuid));
    await imported(u, p.id, repFor(uuid, [{ numParcialidad: 1, impSaldoAnt: 1160, impPagado: 100 }]));
    await request(t, 'DELETE', `/api/profiles/${p.id}`, { headers: bearer(u.token) });
    expect(await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, p.id))).toEqual([]);
    expect(
      await t.handle.db.select().from(paymentApplications).where(eq(paymentApplications.profileId, p.id)),
    ).toEqual([]);
  });
});
