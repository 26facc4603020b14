// Issue 12: what a CFDI is worth in pesos (moneda, tipo_cambio, total_mxn), and values the database
// cannot hold answered as a rejected file with its reason, never a 500, without touching the others.
import { invoiceXml, newUuid } from '@folio/cfdi/testing';
import { cfdis } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, getJson, imported, ME, profileOfMe } from './cfdi-helpers';
import {
  bearer,
  expectError,
  request,
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

const doc = (o: Partial<Parameters<typeof invoiceXml>[0]> = {}) =>
  invoiceXml({ uuid: newUuid(), emisor: ME, receptor: CLIENT, fecha: '2025-03-10T10:00:00', ...o });

const get = (u: TestUser, id: string) => getJson(t, u, `/api/invoices/${id}`);

describe('currency', () => {
  it('a USD invoice carries moneda, tipo_cambio and total_mxn = total × TipoCambio; MXN is itself', async () => {
    const { u, p } = await profileOfMe(t);
    // 2,800 + IVA = 3,248 USD
    const usd = await imported(
      t,
      u,
      p.id,
      doc({ moneda: 'USD', tipoCambio: 17.5, conceptos: [{ descripcion: 'Licencia', importe: 2800 }] }),
    );
    expect(await get(u, usd)).toMatchObject({
      total: 3248,
      moneda: 'USD',
      tipo_cambio: 17.5,
      total_mxn: 56840,
    });
    const mxn = await get(u, await imported(t, u, p.id, doc()));
    expect(mxn).toMatchObject({ moneda: 'MXN', total_mxn: 1160 });
    expect(mxn).not.toHaveProperty('tipo_cambio');
  });

  it('a foreign document without TipoCambio: total_mxn null, with a warning', async () => {
    const { u, p } = await profileOfMe(t);
    const inv = await get(u, await imported(t, u, p.id, doc({ moneda: 'USD' })));
    expect(inv).toMatchObject({ moneda: 'USD', total_mxn: null });
    expect(inv.validacion.advertencias).toContain(
      'documento en USD sin TipoCambio: no se puede convertir a MXN',
    );
  });

  it('expenses carry the same fields; a manual one is in MXN', async () => {
    const { u, p } = await profileOfMe(t);
    await imported(t, u, p.id, doc({ emisor: CLIENT, receptor: ME, moneda: 'EUR', tipoCambio: 20 }));
    const { data } = await (
      await request(t, 'GET', `/api/expenses?profileId=${p.id}`, { headers: bearer(u.token) })
    ).json();
    expect(data[0]).toMatchObject({
      tipo_comprobante: 'I',
      moneda: 'EUR',
      tipo_cambio: 20,
      total_mxn: 23200,
    });
  });
});

describe('values the database cannot hold', () => {
  const sale = doc();
  const bad = {
    'subtotal-1e15.xml': sale.replace(/SubTotal="[^"]*"/, 'SubTotal="1000000000000000"'),
    'tasa-1000.xml': doc().replaceAll('TasaOCuota="0.160000"', 'TasaOCuota="1000"'),
    'fecha-6000.xml': doc({ fecha: `2025-03-10T10:00:00${'0'.repeat(5981)}` }),
    'nombre-1mb.xml': doc({ receptor: { ...CLIENT, nombre: 'N'.repeat(1_000_000) } }),
  };

  it('one such XML alone is a 400 with the reason, and nothing is stored', async () => {
    const { u, p } = await profileOfMe(t);
    const res = await uploadXml(t, u, p.id, bad['subtotal-1e15.xml']);
    expect(await expectError(res, 400, 'Bad Request')).toBe(
      'valor fuera de rango en Comprobante@SubTotal: 1000000000000000 (máximo < 1000000000000)',
    );
    expect(await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, p.id))).toEqual([]);
  });

  it('in a multipart request each is rejected with a Spanish reason; the good file is stored and reported', async () => {
    const { u, p } = await profileOfMe(t);
    const res = await uploadFiles(t, u, p.id, [
      { name: 'buena.xml', content: sale },
      ...Object.entries(bad).map(([name, content]) => ({ name, content })),
    ]);
    const body = await res.json();
    expect(res.status, JSON.stringify(body).slice(0, 500)).toBe(201);
    expect(body.data).toMatchObject({ imported: 1, rejected: 4 });
    const byName = Object.fromEntries(body.data.files.map((f: { name: string }) => [f.name, f]));
    expect(byName['buena.xml']).toMatchObject({ status: 'imported' });
    expect(byName).toMatchObject({
      'subtotal-1e15.xml': { status: 'rejected', error: expect.stringMatching(/fuera de rango/) },
      'tasa-1000.xml': { status: 'rejected', error: 'TasaOCuota de IVA fuera de rango: 1000' },
      'fecha-6000.xml': { status: 'rejected', error: 'Comprobante@Fecha excede 1000 caracteres (6000)' },
      'nombre-1mb.xml': { status: 'rejected', error: 'Receptor@Nombre excede 254 caracteres (1000000)' },
    });
    expect(await t.handle.db.select({ id: cfdis.id }).from(cfdis).where(eq(cfdis.profileId, p.id))).toEqual([
      { id: byName['buena.xml'].id },
    ]);
  });
});
