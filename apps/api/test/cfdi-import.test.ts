import { repFor, sale } from '@folio/api/testing/cfdi';
import { newUuid } from '@folio/cfdi/testing';
import { cfdis, paymentApplications, profiles } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imported, profileOfMe } from './cfdi-helpers';
import {
  bearer,
  caller,
  expectError,
  request,
  signUp,
  startTestApp,
  type TestApp,
  uploadFiles,
  uploadXml,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

// The payment status and the validation flags are rules of the import service: they are tested
// next to it, in packages/api/test/payment-state.test.ts and validation-flags.test.ts.

describe('POST /api/profiles/{profileId}/cfdi', () => {
  it('answers a duplicate UUID in the profile with "duplicate" and stores nothing new', async () => {
    const { u, p } = await profileOfMe(t);
    const xml = sale(newUuid());
    const first = await imported(t, u, p.id, xml);
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
    const { u, p } = await profileOfMe(t);
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
    const { u, p } = await profileOfMe(t);
    const files: Record<string, Uint8Array> = { 'real.xml': strToU8(sale(newUuid())) };
    for (let i = 0; i < 5000; i++) files[`x${i}.xml`] = strToU8('x');
    const res = await uploadFiles(t, u, p.id, [
      { name: 'big.zip', content: Buffer.from(zipSync(files, { level: 0 })) },
    ]);
    await expectError(res, 413, 'Payload Too Large');
    expect(await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, p.id))).toHaveLength(0);
  });

  it('refuses a ZIP with a path-traversal name with 400 and stores nothing', async () => {
    const { u, p } = await profileOfMe(t);
    const zip = zipSync({
      'ok.xml': strToU8(sale(newUuid())),
      '../../etc/evil.xml': strToU8(sale(newUuid())),
    });
    const res = await uploadFiles(t, u, p.id, [{ name: 'evil.zip', content: Buffer.from(zip) }]);
    await expectError(res, 400, 'Bad Request');
    expect(await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, p.id))).toHaveLength(0);
  });

  it('rejects a ZIP-bomb entry (tiny compressed, over 5 MB expanded) without inflating it; the rest imports', async () => {
    const { u, p } = await profileOfMe(t);
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
    const { u, p } = await profileOfMe(t);
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0">&lol2;</cfdi:Comprobante>`;
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>`;
    for (const xml of [laughs, xxe])
      expect(await expectError(await uploadXml(t, u, p.id, xml), 400, 'Bad Request')).toMatch(/DTD|DOCTYPE/i);
  });

  it('answers 413 for a single XML over 5 MB and 415 for another content type', async () => {
    const { u, p } = await profileOfMe(t);
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
    const { u, p } = await profileOfMe(t);
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
    const { u, p } = await profileOfMe(t);
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
    const { u, p } = await profileOfMe(t, null);
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
    const { u, p } = await profileOfMe(t);
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
    const { u, p } = await profileOfMe(t);
    const uuid = newUuid();
    await imported(t, u, p.id, sale(uuid));
    await imported(t, u, p.id, repFor(uuid, [{ numParcialidad: 1, impSaldoAnt: 1160, impPagado: 100 }]));
    await request(t, 'DELETE', `/api/profiles/${p.id}`, { headers: bearer(u.token) });
    expect(await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, p.id))).toEqual([]);
    expect(
      await t.handle.db.select().from(paymentApplications).where(eq(paymentApplications.profileId, p.id)),
    ).toEqual([]);
  });
});
