import { type AllocationNote, type AllocationPayment, allocateCredits, allocationKey } from '@folio/cfdi';
import { push } from '../../group';
import { type Dec, dec, max0, mul, ratio, toMoney, ZERO } from './decimal';
import { docTaxes, type Movements, monthOf, mxnRate, partyOf, scaleTaxes } from './doc-taxes';
import type { NotedInvoice, ReportNote } from './rows';

// The cash a credit note (E) moves, tax-rules §2 (LIVA 1-A, 1-B, 7): applied to its related invoices
// in list order, each up to what it still owed at the note's date; only the rest is money back.

/** TipoRelacion 07: aplicación de anticipo (FormaPago 30), never cash by itself. */
const ANTICIPO = '07';
/** FormaPago 30: aplicación de anticipos. */
const FORMA_ANTICIPO = '30';

const min = (a: Dec, b: Dec) => (a < b ? a : b);

/**
 * Whether history event `e` happened before the note: earlier dates, and on the same instant a
 * payment, or a note with a smaller UUID (an order for notes issued together).
 */
const before = (e: NotedInvoice['history'][number], note: { uuid: string; fecha: string }) =>
  e.ref !== note.uuid &&
  (e.fecha < note.fecha || (e.fecha === note.fecha && (e.kind === 'pago' || e.ref < note.uuid)));

/**
 * Each PPD invoice's part of the note: its invoices' histories walked together, every note split in
 * the order of its list up to each balance at its date (allocateCredits, as the payment status and
 * `pendientes` do). The rows bring the invoices of the notes that share one with this note.
 */
function partsOf(
  note: { uuid: string; fecha: string; total: Dec; moneda: string },
  list: string[],
  invoices: NotedInvoice[],
) {
  const payments: AllocationPayment[] = [];
  const notes = new Map<string, AllocationNote>([
    [
      note.uuid,
      { uuid: note.uuid, fecha: note.fecha, total: toMoney(note.total), moneda: note.moneda, related: list },
    ],
  ]);
  for (const inv of invoices) {
    for (const e of inv.history) {
      if (e.kind === 'pago') payments.push({ uuid: inv.uuid, fecha: e.fecha, amount: Number(e.importe) });
      else if (!notes.has(e.ref)) {
        notes.set(e.ref, {
          uuid: e.ref,
          fecha: e.fecha,
          total: Number(e.importe),
          moneda: inv.moneda,
          related: e.related ?? [inv.uuid],
        });
      }
    }
  }
  const allocationInvoices = invoices.map((i) => ({
    uuid: i.uuid,
    total: Number(i.total),
    moneda: i.moneda,
    ppd: i.metodoPago === 'PPD',
  }));
  return allocateCredits(allocationInvoices, payments, [...notes.values()]);
}

/** A PUE invoice's cash left after the 07 notes before this one: Total − Σ 07 notes, never below zero. */
function unadvanced(inv: NotedInvoice, note: { uuid: string; fecha: string }): Dec {
  let left = dec(inv.total);
  for (const e of inv.history) {
    if (e.kind === 'nota' && e.tipoRelacion === ANTICIPO && before(e, note)) left -= dec(e.importe);
  }
  return max0(left);
}

/** The month a collected invoice was collected in: a PUE's date; a PPD's last payment up to the note. */
function collectedMonth(inv: NotedInvoice, note: { fecha: string }): string {
  if (inv.metodoPago === 'PUE') return monthOf(inv.fecha);
  let last = note.fecha;
  for (const e of inv.history) if (e.kind === 'pago' && e.fecha <= note.fecha) last = e.fecha;
  return monthOf(last);
}

export function addNoteCash(m: Movements, { doc, formaPago, relacionados, invoices }: ReportNote) {
  const month = monthOf(doc.fecha);
  const rate = mxnRate(doc.moneda, doc.tipoCambio);
  // An invalid note or one without a rate is named by its accrual (addDocument) and moves nothing.
  if (!doc.valido || !rate) return;
  const total = dec(doc.total);
  const taxes = docTaxes(doc);
  const party = partyOf(doc);
  /** Lowers the cash of `when` by `amount` of the note (in its currency): its taxes in proportion. */
  const reduce = (when: string, amount: Dec) =>
    push(m.cash, when, {
      ...scaleTaxes(taxes, (v) => -mul(ratio(v, amount, total), rate)),
      side: doc.side,
      party,
      doc: doc.id,
      documentos: 0,
    });

  const byUuid = new Map(invoices.map((i) => [i.uuid, i]));
  const parts = partsOf(
    { uuid: doc.uuid, fecha: doc.fecha, total, moneda: doc.moneda },
    relacionados.map((r) => r.uuid),
    invoices,
  );
  let remaining = total;
  let refundOf: NotedInvoice | undefined;
  const missing: string[] = [];
  for (const { tipoRelacion, uuid } of relacionados) {
    if (remaining <= ZERO) break;
    const inv = byUuid.get(uuid);
    if (!inv?.valido || inv.moneda !== doc.moneda) {
      missing.push(uuid);
      continue;
    }
    if (inv.metodoPago === 'PPD') {
      // Not fully collected: the note lowers the balance; the payments that follow pay the net.
      remaining -= min(remaining, dec(parts.get(allocationKey(doc.uuid, uuid)) ?? 0));
      if (remaining > ZERO) refundOf ??= inv;
    } else if (tipoRelacion === ANTICIPO) {
      // PUE: its cash on its Fecha is its total less its 07 notes, never below zero.
      const applied = min(remaining, unadvanced(inv, doc));
      if (applied > ZERO) reduce(monthOf(inv.fecha), applied);
      remaining -= applied;
    } else refundOf ??= inv;
  }
  if (remaining <= ZERO) return;
  if (missing.length > 0) {
    push(
      m.warnings,
      month,
      `nota de crédito ${doc.uuid}: ${missing.length === 1 ? 'la factura relacionada' : 'las facturas relacionadas'} ${missing.join(', ')} no ${missing.length === 1 ? 'está' : 'están'} en Folio (o en otra moneda)`,
    );
  }
  const advance = formaPago === FORMA_ANTICIPO || relacionados.some((r) => r.tipoRelacion === ANTICIPO);
  if (advance) {
    // An advance's application is no money by itself: what it does not offset stays out of cash.
    push(
      m.warnings,
      month,
      `nota ${doc.uuid} (aplicación de anticipo): excede lo que compensa; no mueve flujo`,
    );
    return;
  }
  // Money back. With IVA withheld on the original (LIVA 1-A) it belongs to the month it was collected.
  if (refundOf && dec(refundOf.retencionIva) > ZERO) {
    const collected = collectedMonth(refundOf, doc);
    reduce(collected, remaining);
    if (collected !== month) {
      push(
        m.warnings,
        collected,
        `nota de crédito ${doc.uuid} (${doc.fecha.slice(0, 10)}) reduce este mes: la factura ${refundOf.uuid} tuvo IVA retenido (LIVA 1-A); presentar declaración complementaria`,
      );
    }
    return;
  }
  reduce(month, remaining);
}
