import { newUuid } from '@folio/cfdi/testing';
import { cfdis, paymentApplications } from '@folio/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imported, importOne, invoice, profileOfMe, repFor, sale } from './cfdi-setup';
import { caller, signUp, startTestApi, type TestApi } from './harness';

// How an invoice's payment status follows its complements and manual payments, through the caller.

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

describe('payment status follows the complements', () => {
  it('a complement imported before its invoice is kept and applied when the invoice arrives', async () => {
    const { u, p } = await profileOfMe(t);
    const uuid = newUuid();
    await imported(t, u, p.id, repFor(uuid, [{ numParcialidad: 1, impSaldoAnt: 1160, impPagado: 1160 }]));
    expect(
      await t.handle.db.select().from(paymentApplications).where(eq(paymentApplications.relatedUuid, uuid)),
    ).toHaveLength(1);
    const id = await imported(t, u, p.id, sale(uuid));
    expect((await invoice(t, u, id)).estadoPago).toMatchObject({
      estado: 'PAGADO',
      totalPagado: 1160,
      ultimoSaldoInsoluto: 0,
      tieneComplementos: true,
    });
  });

  it('ends paid whichever commits first when an invoice and its complement arrive at the same time', async () => {
    const { u, p } = await profileOfMe(t);
    const pairs = Array.from({ length: 8 }, () => newUuid());
    await Promise.all(
      pairs.flatMap((uuid) => [
        importOne(t, u, p.id, sale(uuid)),
        importOne(t, u, p.id, repFor(uuid, [{ numParcialidad: 1, impSaldoAnt: 1160, impPagado: 1160 }])),
      ]),
    );
    const rows = await t.handle.db.select().from(cfdis).where(eq(cfdis.profileId, p.id));
    const invoices = rows.filter((r) => r.tipo === 'PPD');
    expect(invoices).toHaveLength(8);
    expect(invoices.map((r) => (r.estadoPago as { estado: string }).estado)).toEqual(Array(8).fill('PAGADO'));
  });

  it('two partial complements, then the settling one: NO_PAGADO → PAGO_PARCIAL → PAGADO', async () => {
    const { u, p } = await profileOfMe(t);
    const uuid = newUuid();
    const id = await imported(t, u, p.id, sale(uuid));
    expect((await invoice(t, u, id)).estadoPago?.estado).toBe('NO_PAGADO');
    await imported(t, u, p.id, repFor(uuid, [{ numParcialidad: 1, impSaldoAnt: 1160, impPagado: 400 }]));
    expect((await invoice(t, u, id)).estadoPago).toMatchObject({
      estado: 'PAGO_PARCIAL',
      totalPagado: 400,
      saldoPendiente: 760,
      porcentajePagado: 34.48,
      ultimoSaldoInsoluto: 760,
    });
    await imported(
      t,
      u,
      p.id,
      repFor(uuid, [{ numParcialidad: 2, impSaldoAnt: 760, impPagado: 360 }], '2025-04-20T12:00:00'),
    );
    expect((await invoice(t, u, id)).estadoPago).toMatchObject({
      estado: 'PAGO_PARCIAL',
      totalPagado: 760,
      ultimoSaldoInsoluto: 400,
    });
    await imported(
      t,
      u,
      p.id,
      repFor(uuid, [{ numParcialidad: 3, impSaldoAnt: 400, impPagado: 400 }], '2025-05-20T12:00:00'),
    );
    const done = await invoice(t, u, id);
    expect(done.estadoPago).toMatchObject({
      estado: 'PAGADO',
      completamentePagado: true,
      porcentajePagado: 100,
      ultimoSaldoInsoluto: 0,
    });
    expect(done.pagos.map((x) => x.monto)).toEqual([400, 360, 400]);
    expect(done.validacion.advertencias, 'a clean run of installments warns about nothing').toEqual([]);
  });

  it('warns about a gap in the installments and about overpayment', async () => {
    const { u, p } = await profileOfMe(t);
    const uuid = newUuid();
    const id = await imported(t, u, p.id, sale(uuid));
    await imported(t, u, p.id, repFor(uuid, [{ numParcialidad: 1, impSaldoAnt: 1160, impPagado: 1160 }]));
    await imported(
      t,
      u,
      p.id,
      repFor(uuid, [{ numParcialidad: 3, impSaldoAnt: 1160, impPagado: 1160 }], '2025-04-01T09:00:00'),
    );
    const inv = await invoice(t, u, id);
    expect(inv.estadoPago?.estado).toBe('PAGADO');
    expect(inv.validacion.advertencias.join(' | ')).toMatch(/parcialidad/i);
    expect(inv.validacion.advertencias.join(' | ')).toMatch(/sobrepago|excede|overpay/i);
  });

  it('does not add a complement paid in another currency, and says why', async () => {
    const { u, p } = await profileOfMe(t);
    const uuid = newUuid();
    const id = await imported(t, u, p.id, sale(uuid));
    await imported(
      t,
      u,
      p.id,
      repFor(uuid, [{ numParcialidad: 1, impSaldoAnt: 1160, impPagado: 1160, monedaDR: 'USD' }]),
    );
    const inv = await invoice(t, u, id);
    expect(inv.estadoPago).toMatchObject({ estado: 'NO_PAGADO', totalPagado: 0 });
    expect(inv.validacion.advertencias.join(' ')).toMatch(/USD/);
  });
});

describe('manual payments', () => {
  it('are recorded and recompute the status: partial, then paid; bad or foreign ones are refused', async () => {
    const { u, p } = await profileOfMe(t);
    const id = await imported(t, u, p.id, sale(newUuid()));
    const first = await caller(t, u.token).invoices.addPayment({
      id,
      fechaPago: '2025-03-15',
      formaPago: '03',
      monedaPago: 'MXN',
      monto: 160,
      numOperacion: 'SPEI-1',
    });
    expect(first.data.estadoPago).toMatchObject({
      estado: 'PAGO_PARCIAL',
      totalPagado: 160,
      tienePagosManuales: true,
    });
    const second = await caller(t, u.token).invoices.addPayment({
      id,
      fechaPago: '2025-03-30',
      formaPago: '01',
      monedaPago: 'MXN',
      monto: 1000,
    });
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
      await expect(caller(t, u.token).invoices.addPayment({ id, ...bad } as never)).rejects.toMatchObject({
        code: 'BAD_REQUEST',
      });
    }
    const stranger = await signUp(t);
    await expect(
      caller(t, stranger.token).invoices.addPayment({
        id,
        fechaPago: '2025-03-01',
        formaPago: '03',
        monedaPago: 'MXN',
        monto: 1,
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
