import { computeEstadoPago, paymentDate } from '@folio/cfdi';
import type { Tx } from '@folio/db';
import {
  type ApplicationRow,
  applicationsFor,
  type CfdiRow,
  lockPaymentKeys,
  type ManualPaymentRow,
  manualPaymentsFor,
  payableByUuids,
  savePaymentState,
} from '@folio/db/queries/cfdis';

const toApplication = (a: ApplicationRow) => ({
  repUuid: a.repUuid,
  fechaPago: a.fechaPago,
  formaPago: a.formaPago,
  monedaP: a.monedaP,
  ...(a.monto !== null ? { monto: a.monto } : {}),
  ...(a.numOperacion ? { numOperacion: a.numOperacion } : {}),
  monedaDR: a.monedaDr,
  numParcialidad: a.numParcialidad,
  impSaldoAnt: a.impSaldoAnt,
  impPagado: a.impPagado,
  impSaldoInsoluto: a.impSaldoInsoluto,
});

const toManual = (m: ManualPaymentRow) => ({
  fechaPago: m.fechaPago,
  formaPago: m.formaPago,
  monedaPago: m.monedaPago,
  monto: m.monto,
  ...(m.numOperacion ? { numOperacion: m.numOperacion } : {}),
});

/**
 * Recomputes estadoPago, the payment records and is_paid/payment_date of the profile's invoices with
 * these UUIDs, from every complement application and manual payment stored for them. Runs in the
 * transaction that changed them, whichever arrived first (invoice, complement or manual payment).
 */
export async function refreshPaymentState(
  tx: Tx,
  profileId: string,
  uuids: string[],
  /** The invoice just inserted in this transaction: nothing to re-read, no manual payments yet. */
  fresh?: CfdiRow,
): Promise<CfdiRow[]> {
  await lockPaymentKeys(tx, profileId, uuids);
  const invoices = fresh ? [fresh] : await payableByUuids(tx, profileId, [...new Set(uuids)]);
  if (!invoices.length) return [];
  const [apps, manual] = await Promise.all([
    applicationsFor(
      tx,
      profileId,
      invoices.map((i) => i.uuid),
    ),
    fresh
      ? []
      : manualPaymentsFor(
          tx,
          invoices.map((i) => i.id),
        ),
  ]);
  const updated: CfdiRow[] = [];
  for (const invoice of invoices) {
    const applications = apps.filter((a) => a.relatedUuid === invoice.uuid).map(toApplication);
    const payments = manual.filter((m) => m.cfdiId === invoice.id).map(toManual);
    const { estadoPago, advertencias } = computeEstadoPago(
      {
        total: invoice.total,
        moneda: invoice.moneda,
        metodoPago: (invoice.metodoPago ?? undefined) as 'PUE' | 'PPD' | undefined,
        tipoDeComprobante: invoice.tipoComprobante,
      },
      applications,
      payments,
    );
    const state = {
      estadoPago,
      pagos: [
        ...applications.map((a) => ({
          fechaPago: a.fechaPago,
          formaPago: a.formaPago,
          monedaPago: a.monedaDR,
          monto: a.impPagado,
          ...(a.numOperacion ? { numOperacion: a.numOperacion } : {}),
        })),
        ...payments,
      ],
      isPaid: estadoPago.completamentePagado,
      // Paid at issue (PUE) with no payment record: the invoice date is when it was paid.
      paymentDate:
        paymentDate(estadoPago, applications, payments) ??
        (estadoPago.completamentePagado ? invoice.fecha : null),
      paymentWarnings: advertencias,
    };
    await savePaymentState(tx, invoice.id, state);
    updated.push({ ...invoice, ...state, updatedAt: new Date() });
  }
  return updated;
}
