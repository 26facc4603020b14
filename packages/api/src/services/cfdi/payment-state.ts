import { computeEstadoPago, payeeApplications, paymentDate } from '@folio/cfdi';
import type { Tx } from '@folio/db';
import {
  type ApplicationRow,
  addPaymentWarnings,
  applicationsFor,
  creditNotesFor,
  lockPaymentKeys,
  type ManualPaymentRow,
  manualPaymentsFor,
  type PaymentState,
  payableByUuids,
  savePaymentStates,
} from '@folio/db/queries/cfdis';

const toApplication = (a: ApplicationRow) => ({
  rep: a.rep,
  repCfdiId: a.repCfdiId,
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
 * these UUIDs, from every complement application, manual payment and credit note stored for them.
 * Runs in the transaction that changed them, whichever arrived first (invoice, complement, credit
 * note or manual payment), once for all the UUIDs it touched: a few statements however many. A
 * complement from another party than the invoice's emisor is not applied and says so on the
 * complement.
 */
export async function refreshPaymentState(tx: Tx, profileId: string, uuids: string[]): Promise<void> {
  const keys = [...new Set(uuids)];
  await lockPaymentKeys(tx, profileId, keys);
  const invoices = await payableByUuids(tx, profileId, keys);
  if (!invoices.length) return;
  const invoiceUuids = invoices.map((i) => i.uuid);
  const [apps, credits, manual] = await Promise.all([
    applicationsFor(tx, profileId, invoiceUuids),
    creditNotesFor(tx, profileId, invoiceUuids),
    manualPaymentsFor(
      tx,
      invoices.map((i) => i.id),
    ),
  ]);
  const states: (PaymentState & { id: string })[] = [];
  for (const invoice of invoices) {
    const payee = payeeApplications(
      invoice,
      apps.filter((a) => a.relatedUuid === invoice.uuid).map(toApplication),
    );
    for (const { application, warning } of payee.unapplied) {
      await addPaymentWarnings(tx, application.repCfdiId, [warning]);
    }
    const applications = payee.applied;
    const payments = manual.filter((m) => m.cfdiId === invoice.id).map(toManual);
    const computed = computeEstadoPago(
      {
        total: invoice.total,
        moneda: invoice.moneda,
        metodoPago: (invoice.metodoPago ?? undefined) as 'PUE' | 'PPD' | undefined,
        tipoDeComprobante: invoice.tipoComprobante,
      },
      applications,
      payments,
      credits.filter((n) => n.relatedUuid === invoice.uuid),
    );
    const { estadoPago } = computed;
    states.push({
      id: invoice.id,
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
      paymentWarnings: [...payee.invoiceWarnings, ...computed.advertencias],
    });
  }
  await savePaymentStates(tx, states);
}
