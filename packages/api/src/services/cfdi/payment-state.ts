import { isDeepStrictEqual } from 'node:util';
import {
  allocateCredits,
  allocationKey,
  CREDITING_RELATIONS,
  computeEstadoPago,
  type EstadoPago,
  payeeApplications,
  paymentDate,
} from '@folio/cfdi';
import type { Tx } from '@folio/db';
import {
  type ApplicationRow,
  addPaymentWarnings,
  applicationsFor,
  creditNotesFor,
  lockPaymentKeys,
  type ManualPaymentRow,
  manualPaymentsFor,
  type NewCfdi,
  type PayableRow,
  type PaymentState,
  payableByUuids,
  savePaymentStates,
  withNoteSiblings,
} from '@folio/db/queries/cfdis';
import { groupBy } from '../group';
import { emit } from '../webhooks/events';
import { cancelledWithPayments } from './status-warnings';

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

/** What an invoice's payment state is computed from, as stored or about to be. */
type Payable = Pick<
  NewCfdi,
  | 'uuid'
  | 'total'
  | 'moneda'
  | 'metodoPago'
  | 'tipoComprobante'
  | 'fecha'
  | 'rfcEmisor'
  | 'rfcReceptor'
  | 'facts'
  | 'estatusSat'
>;

/** When a document paid at issue was paid: a nómina on its complement's FechaPago (tax-rules §3), else its Fecha. */
const issuePaymentDate = (invoice: Payable) =>
  (invoice.facts as { nomina?: { fechaPago?: string } } | null | undefined)?.nomina?.fechaPago ||
  invoice.fecha;
type CreditNote = Awaited<ReturnType<typeof creditNotesFor>>[number];

/** An invoice's payment state from the complements, manual payments and credit notes naming it. */
function paymentStateOf(
  invoice: Payable,
  apps: ApplicationRow[],
  manual: ManualPaymentRow[],
  credits: CreditNote[],
): { state: PaymentState; unapplied: { application: ReturnType<typeof toApplication>; warning: string }[] } {
  const payee = payeeApplications(invoice, apps.map(toApplication));
  const applications = payee.applied;
  const payments = manual.map(toManual);
  const computed = computeEstadoPago(
    {
      total: invoice.total,
      moneda: invoice.moneda,
      metodoPago: (invoice.metodoPago ?? undefined) as 'PUE' | 'PPD' | undefined,
      tipoDeComprobante: invoice.tipoComprobante,
    },
    applications,
    payments,
    credits,
  );
  const { estadoPago } = computed;
  const state: PaymentState = {
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
    // Paid at issue (PUE, nómina) with no payment record: paid on its date (a nómina's FechaPago).
    paymentDate:
      paymentDate(estadoPago, applications, payments, invoice.metodoPago === 'PPD' ? credits : []) ??
      (estadoPago.completamentePagado ? issuePaymentDate(invoice) : null),
    paymentWarnings: [
      ...payee.invoiceWarnings,
      ...computed.advertencias,
      ...cancelledWithPayments(invoice, applications.length + payments.length, credits.length),
    ],
  };
  return { state, unapplied: payee.unapplied };
}

/** Can it be paid (not a payment complement, credit note nor traslado)? As `payableByUuids` selects. */
const isPayable = (row: Pick<NewCfdi, 'tipo' | 'tipoComprobante'>) =>
  row.tipo !== 'COMPLEMENTO_PAGO' && row.tipoComprobante !== 'E' && row.tipoComprobante !== 'T';

/** What a complement, a credit note or a traslado holds: no payment state of its own (the columns' defaults). */
export const NO_STATE: PaymentState = {
  estadoPago: null,
  pagos: [],
  isPaid: null,
  paymentDate: null,
  paymentWarnings: [],
};

/**
 * A new CFDI's row with the payment state it has while nothing pays or credits it: what
 * `refreshPaymentState` finds for most documents of an import, which then needs no second write.
 * Every row gets the same fields, so a batch's rows go in one insert.
 */
export function withUnpaidState(row: NewCfdi): NewCfdi {
  return { ...row, ...(isPayable(row) ? paymentStateOf(row, [], [], []).state : NO_STATE) };
}

/** The stored form of a payment state (jsonb drops undefined fields), for comparing two. */
const stored = (s: PaymentState) =>
  JSON.parse(
    JSON.stringify({
      estadoPago: s.estadoPago ?? null,
      pagos: s.pagos ?? [],
      isPaid: s.isPaid ?? null,
      paymentDate: s.paymentDate ?? null,
      paymentWarnings: s.paymentWarnings ?? [],
    }),
  );

/**
 * Recomputes estadoPago, the payment records and is_paid/payment_date of the profile's invoices with
 * these UUIDs, from every complement application, manual payment and credit note stored for them,
 * and writes those that changed. Runs in the transaction that changed them, whichever arrived first
 * (invoice, complement, credit note or manual payment), once for all the UUIDs it touched: a few
 * statements however many. A complement from another party than the invoice's emisor is not
 * applied and says so on the complement. An invoice whose estado changes gets its
 * `invoice.payment_status.updated` event here, in the same transaction.
 */
export async function refreshPaymentState(tx: Tx, profileId: string, uuids: string[]): Promise<void> {
  // With the other invoices of the notes naming these: one note's parts depend on all of them.
  const keys = await withNoteSiblings(tx, profileId, [...new Set(uuids)]);
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
  // Looked up by invoice, not filtered per invoice: one complement may pay thousands of them.
  const appsOf = groupBy(apps, (a) => a.relatedUuid);
  const manualOf = groupBy(manual, (m) => m.cfdiId);
  const creditsOf = groupBy(noteParts(invoices, apps, manual, credits), (n) => n.relatedUuid);
  const states: (PaymentState & { id: string })[] = [];
  const unapplied: ReturnType<typeof paymentStateOf>['unapplied'] = [];
  for (const invoice of invoices) {
    const result = paymentStateOf(
      invoice,
      appsOf.get(invoice.uuid) ?? [],
      manualOf.get(invoice.id) ?? [],
      creditsOf.get(invoice.uuid) ?? [],
    );
    unapplied.push(...result.unapplied);
    const { state } = result;
    if (!isDeepStrictEqual(stored(state), stored(invoice))) states.push({ id: invoice.id, ...state });
  }
  // One statement per complement, however many of its documents it could not pay.
  for (const [repCfdiId, found] of groupBy(unapplied, (u) => u.application.repCfdiId)) {
    await addPaymentWarnings(
      tx,
      repCfdiId,
      found.map((u) => u.warning),
    );
  }
  await savePaymentStates(tx, states);
  const estadoOf = (s: Pick<PaymentState, 'estadoPago'>) =>
    (s.estadoPago as EstadoPago | null)?.estado ?? null;
  const before = new Map(invoices.map((i) => [i.id, estadoOf(i)]));
  const at = new Date().toISOString();
  await emit(
    tx,
    { profileId },
    'invoice.payment_status.updated',
    states
      .filter((s) => estadoOf(s) !== before.get(s.id))
      .map((s) => ({
        invoice_id: s.id,
        profile_id: profileId,
        estado_anterior: before.get(s.id) ?? null,
        estado: estadoOf(s),
        saldo: (s.estadoPago as EstadoPago | null)?.saldoPendiente ?? null,
        updated_at: at,
      })),
  );
}

/**
 * Each credit note row with its `total` replaced by the part of the note that lowers that invoice:
 * a note names several invoices in list order, each taking up to its balance at the note's date
 * (tax-rules §2, §3); the rest lowers none.
 */
function noteParts(
  invoices: PayableRow[],
  apps: ApplicationRow[],
  manual: ManualPaymentRow[],
  credits: CreditNote[],
): CreditNote[] {
  const byUuid = new Map(invoices.map((i) => [i.uuid, i]));
  const uuidOfId = new Map(invoices.map((i) => [i.id, i.uuid]));
  const payments = [
    ...apps
      .filter((a) => {
        const inv = byUuid.get(a.relatedUuid);
        return inv && a.rep.rfcEmisor === inv.rfcEmisor && a.monedaDr === inv.moneda;
      })
      .map((a) => ({ uuid: a.relatedUuid, fecha: a.fechaPago, amount: a.impPagado })),
    ...manual
      .filter((m) => byUuid.get(uuidOfId.get(m.cfdiId) ?? '')?.moneda === m.monedaPago)
      .map((m) => ({ uuid: uuidOfId.get(m.cfdiId)!, fecha: m.fechaPago, amount: m.monto })),
  ];
  const notes = [...groupBy(credits, (n) => n.uuid).values()].map((rows) => {
    const [n] = rows as [CreditNote];
    // Before the back-fill gives a note its facts, its relations come unordered.
    const related =
      n.relacionados?.filter((g) => CREDITING_RELATIONS.includes(g.tipoRelacion)).flatMap((g) => g.uuids) ??
      rows.map((r) => r.relatedUuid);
    return { uuid: n.uuid, fecha: n.fecha, total: n.total, moneda: n.moneda, related };
  });
  const parts = allocateCredits(
    invoices.map((i) => ({
      uuid: i.uuid,
      total: i.total,
      moneda: i.moneda,
      ppd: i.metodoPago === 'PPD' && i.tipoComprobante !== 'N',
    })),
    payments,
    notes,
  );
  return credits.map((n) => ({ ...n, total: parts.get(allocationKey(n.uuid, n.relatedUuid)) ?? 0 }));
}
