// Issue 12, domain: a credit note (E) is told apart and lowers its PPD invoice's balance, a payment
// complement pays only what its own emisor issued, and the payment state agrees with itself.
import { invoiceXml, newUuid, type Party, paymentXml } from '@folio/cfdi/testing';
import { cfdiRelations } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, getJson, imported, ME, profileOfMe, SUPPLIER } from './cfdi-helpers';
import { bearer, caller, request, startTestApp, type TestApp, type TestUser, uploadFiles } from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A 5,800 PPD sale (5,000 + IVA). */
const sale = (uuid: string, from = ME, to = CLIENT) =>
  invoiceXml({
    uuid,
    emisor: from,
    receptor: to,
    fecha: '2025-03-10T10:00:00',
    metodoPago: 'PPD',
    conceptos: [{ descripcion: 'Mercancía', importe: 5000 }],
  });

/** A 1,160 credit note (1,000 + IVA) relating by 01 to `invoiceUuid`. */
const creditNote = (
  uuid: string,
  invoiceUuid: string,
  fecha = '2025-03-12T10:00:00',
  from = ME,
  to = CLIENT,
) =>
  invoiceXml({
    uuid,
    emisor: from,
    receptor: to,
    fecha,
    tipoDeComprobante: 'E',
    relacionados: [{ tipoRelacion: '01', uuids: [invoiceUuid] }],
    conceptos: [{ descripcion: 'Bonificación', importe: 1000 }],
  });

const rep = (
  invoiceUuid: string,
  d: { numParcialidad: number; impSaldoAnt: number; impPagado: number },
  o: { from?: Party; to?: Party; fechaPago?: string } = {},
) =>
  paymentXml({
    uuid: newUuid(),
    emisor: o.from ?? ME,
    receptor: o.to ?? CLIENT,
    fecha: o.fechaPago ?? '2025-03-20T12:00:00',
    pagos: [{ fechaPago: o.fechaPago ?? '2025-03-20T12:00:00', doctos: [{ uuid: invoiceUuid, ...d }] }],
  });

const get = (u: TestUser, id: string) => getJson(t, u, `/api/invoices/${id}`);
const list = (u: TestUser, path: string) => getJson(t, u, path);

describe('a credit note (TipoDeComprobante E)', () => {
  it('is listed as an E without a payment status of its own, and the PPD invoice shows it credited', async () => {
    const { u, p } = await profileOfMe(t);
    const invoiceUuid = newUuid();
    const invoiceId = await imported(t, u, p.id, sale(invoiceUuid));
    const noteId = await imported(t, u, p.id, creditNote(newUuid(), invoiceUuid));

    const note = await get(u, noteId);
    expect(note).toMatchObject({ tipo_comprobante: 'E', total: 1160, estadoPago: null });
    expect(await get(u, invoiceId)).toMatchObject({
      tipo_comprobante: 'I',
      estadoPago: {
        estado: 'PAGO_PARCIAL',
        totalPagado: 0,
        notasCredito: 1160,
        saldoPendiente: 4640,
        porcentajePagado: 20,
        completamentePagado: false,
      },
    });
    const relations = await t.handle.db.select().from(cfdiRelations).where(eq(cfdiRelations.cfdiId, noteId));
    expect(relations).toMatchObject([{ tipoRelacion: '01', relatedUuid: invoiceUuid }]);
  });

  it('cannot receive a manual payment (400), and the note stays without a payment status', async () => {
    const { u, p } = await profileOfMe(t);
    const noteId = await imported(t, u, p.id, creditNote(newUuid(), newUuid()));
    const res = await request(t, 'POST', `/api/invoices/${noteId}/payments`, {
      headers: bearer(u.token),
      body: { fechaPago: '2025-03-15', formaPago: '03', monedaPago: 'MXN', monto: 100 },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('A credit note cannot receive payments');
    expect(await get(u, noteId)).toMatchObject({ estadoPago: null, pagos: [] });
  });

  it('imported before its invoice, is counted when the invoice arrives', async () => {
    const { u, p } = await profileOfMe(t);
    const invoiceUuid = newUuid();
    await imported(t, u, p.id, creditNote(newUuid(), invoiceUuid));
    const invoiceId = await imported(t, u, p.id, sale(invoiceUuid));
    expect((await get(u, invoiceId)).estadoPago).toMatchObject({ notasCredito: 1160, saldoPendiente: 4640 });
  });

  // Issue 12 let the complement's ImpSaldoInsoluto decide; tax-rules §3 (issue 24) makes the balance
  // follow what was paid and credited, and flags the complement instead.
  it('a later complement that ignores the note: the balance is total − paid − credited, the complement defective', async () => {
    const { u, p } = await profileOfMe(t);
    const invoiceUuid = newUuid();
    const invoiceId = await imported(t, u, p.id, sale(invoiceUuid));
    await imported(t, u, p.id, creditNote(newUuid(), invoiceUuid, '2025-03-12T10:00:00'));
    // Paid 1,000 on the 20th starting from 5,800, as if the 1,160 note did not exist.
    const repUuid = newUuid();
    await imported(
      t,
      u,
      p.id,
      paymentXml({
        uuid: repUuid,
        emisor: ME,
        receptor: CLIENT,
        fecha: '2025-03-20T12:00:00',
        pagos: [
          {
            fechaPago: '2025-03-20T12:00:00',
            doctos: [{ uuid: invoiceUuid, numParcialidad: 1, impSaldoAnt: 5800, impPagado: 1000 }],
          },
        ],
      }),
    );
    const inv = await get(u, invoiceId);
    // 5,800 − 1,000 − 1,160 = 3,640, not the REP's 4,800.
    expect(inv.estadoPago).toMatchObject({ saldoPendiente: 3640, notasCredito: 1160, totalPagado: 1000 });
    expect(inv.validacion.advertencias).toContain(
      `complemento ${repUuid} (parcialidad 1) defectuoso: ImpSaldoAnt 5800.00 ≠ saldo a su FechaPago según pagos y notas (4640.00)`,
    );
  });

  it('a received one is an expense with tipo_comprobante E and no is_paid; the filter lists only notes', async () => {
    const { u, p } = await profileOfMe(t);
    const bought = newUuid();
    await imported(t, u, p.id, sale(bought, SUPPLIER, ME));
    await imported(t, u, p.id, creditNote(newUuid(), bought, '2025-03-12T10:00:00', SUPPLIER, ME));
    await imported(t, u, p.id, sale(newUuid()));
    await imported(t, u, p.id, creditNote(newUuid(), newUuid()));

    const expenses = await list(u, `/api/expenses?profileId=${p.id}&tipo_comprobante=E`);
    expect(expenses.data).toHaveLength(1);
    expect(expenses.data[0]).toMatchObject({ tipo_comprobante: 'E', total: 1160 });
    expect(expenses.data[0]).not.toHaveProperty('is_paid');
    const all = await list(u, `/api/expenses?profileId=${p.id}`);
    expect(all.data.find((e: { tipo_comprobante: string }) => e.tipo_comprobante === 'I')).toMatchObject({
      is_paid: false,
    });

    const notes = await caller(t, u.token).invoices.list({ profileId: p.id, tipo_comprobante: 'E' });
    expect(notes.data.map((i) => [i.tipo_comprobante, i.estadoPago])).toEqual([['E', null]]);
    const sales = await list(u, `/api/invoices?profileId=${p.id}&tipo_comprobante=I`);
    expect(sales.data.map((i: { tipo_comprobante: string }) => i.tipo_comprobante)).toEqual(['I']);
  });
});

describe('a payment complement pays only what its emisor issued', () => {
  it('a supplier’s REP naming one of my income invoices leaves it unpaid, with a warning on the REP', async () => {
    const { u, p } = await profileOfMe(t);
    const invoiceUuid = newUuid();
    const invoiceId = await imported(t, u, p.id, sale(invoiceUuid));
    const forged = rep(
      invoiceUuid,
      { numParcialidad: 1, impSaldoAnt: 5800, impPagado: 5800 },
      { from: SUPPLIER, to: ME },
    );
    const repId = await imported(t, u, p.id, forged);

    expect((await get(u, invoiceId)).estadoPago).toMatchObject({
      estado: 'NO_PAGADO',
      totalPagado: 0,
      tieneComplementos: false,
    });
    const expenseRep = (await list(u, `/api/expenses?profileId=${p.id}&tipo=COMPLEMENTO_PAGO`)).data;
    expect(expenseRep.map((e: { id: string }) => e.id)).toEqual([repId]);
    expect((await get(u, repId)).validacion.advertencias).toContain(
      `el pago a la factura ${invoiceUuid} no se aplica: el emisor del complemento (${SUPPLIER.rfc}) no es el emisor de la factura (${ME.rfc})`,
    );
  });

  it('a supplier’s REP naming two of my invoices, uploaded with them, warns once for each and pays neither', async () => {
    const { u, p } = await profileOfMe(t);
    const [a, b] = [newUuid(), newUuid()];
    const repUuid = newUuid();
    const forged = paymentXml({
      uuid: repUuid,
      emisor: SUPPLIER,
      receptor: ME,
      fecha: '2025-03-20T12:00:00',
      pagos: [
        {
          fechaPago: '2025-03-20T12:00:00',
          doctos: [a, b].map((uuid) => ({ uuid, numParcialidad: 1, impSaldoAnt: 5800, impPagado: 5800 })),
        },
      ],
    });
    const res = await uploadFiles(t, u, p.id, [
      { name: 'a.xml', content: sale(a) },
      { name: 'rep.xml', content: forged },
      { name: 'b.xml', content: sale(b) },
    ]);
    const report = await res.json();
    expect(res.status, JSON.stringify(report)).toBe(201);
    expect(report.data.imported).toBe(3);
    const idOf = (uuid: string) => report.data.files.find((f: { uuid: string }) => f.uuid === uuid).id;
    for (const uuid of [a, b]) {
      expect((await get(u, idOf(uuid))).estadoPago).toMatchObject({ estado: 'NO_PAGADO', totalPagado: 0 });
    }
    const warned = (await get(u, idOf(repUuid))).validacion.advertencias.filter((w: string) =>
      w.includes('no se aplica'),
    );
    expect(warned.sort()).toEqual(
      [a, b]
        .map(
          (uuid) =>
            `el pago a la factura ${uuid} no se aplica: el emisor del complemento (${SUPPLIER.rfc}) no es el emisor de la factura (${ME.rfc})`,
        )
        .sort(),
    );
  });

  it('the same when the REP arrives before the invoice', async () => {
    const { u, p } = await profileOfMe(t);
    const invoiceUuid = newUuid();
    const repId = await imported(
      t,
      u,
      p.id,
      rep(invoiceUuid, { numParcialidad: 1, impSaldoAnt: 5800, impPagado: 5800 }, { from: SUPPLIER, to: ME }),
    );
    const invoiceId = await imported(t, u, p.id, sale(invoiceUuid));
    expect((await get(u, invoiceId)).estadoPago).toMatchObject({ estado: 'NO_PAGADO' });
    expect((await get(u, repId)).validacion.advertencias.join(' | ')).toMatch(/no se aplica/);
  });

  it('my REP to another receptor pays the invoice, with a warning on the invoice', async () => {
    const { u, p } = await profileOfMe(t);
    const invoiceUuid = newUuid();
    const invoiceId = await imported(t, u, p.id, sale(invoiceUuid));
    const other: Party = { rfc: 'XAXX010101000', nombre: 'Público', regimen: '616' };
    await imported(
      t,
      u,
      p.id,
      rep(invoiceUuid, { numParcialidad: 1, impSaldoAnt: 5800, impPagado: 5800 }, { to: other }),
    );
    const inv = await get(u, invoiceId);
    expect(inv.estadoPago).toMatchObject({ estado: 'PAGADO' });
    expect(inv.validacion.advertencias.join(' | ')).toMatch(
      /su receptor \(XAXX010101000\) no es el receptor de la factura \(COSC8001137NA\)/,
    );
  });
});

describe('the payment state agrees with itself', () => {
  it('only parcialidad 2 on file, ImpSaldoInsoluto 0: the balance follows the payment known (tax-rules §3)', async () => {
    const { u, p } = await profileOfMe(t);
    const invoiceUuid = newUuid();
    const invoiceId = await imported(t, u, p.id, sale(invoiceUuid));
    await imported(t, u, p.id, rep(invoiceUuid, { numParcialidad: 2, impSaldoAnt: 3480, impPagado: 3480 }));
    const inv = await get(u, invoiceId);
    // 5,800 − 3,480 = 2,320 still owed (60 %), though the REP says 0: installment 1 is missing.
    expect(inv.estadoPago).toMatchObject({
      estado: 'PAGO_PARCIAL',
      completamentePagado: false,
      porcentajePagado: 60,
      saldoPendiente: 2320,
      totalPagado: 3480,
    });
    expect(inv.validacion.advertencias).toContain('faltan parcialidades: 1');
  });
});
