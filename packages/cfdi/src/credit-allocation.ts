// How much of each credit note (E with TipoRelacion 01, 03 or 07) lowers each invoice it names:
// tax-rules §2/§3 — applied in the order of its CfdiRelacionado list, each invoice up to what it
// still owed at the note's date; what is left lowers none (money back, the cash basis's refund).

export interface AllocationInvoice {
  uuid: string;
  total: number;
  moneda: string;
  /** Only a PPD invoice owes a balance; a PUE one is paid at issue and takes nothing. */
  ppd: boolean;
}

/** A payment of an invoice, in its currency. */
export interface AllocationPayment {
  uuid: string;
  fecha: string;
  amount: number;
}

export interface AllocationNote {
  uuid: string;
  fecha: string;
  total: number;
  moneda: string;
  /** The invoices it names, in list order. */
  related: string[];
}

export const allocationKey = (noteUuid: string, invoiceUuid: string) => `${noteUuid}|${invoiceUuid}`;

const cents = (n: number) => Math.round(n * 100) / 100;

/**
 * The part of each note that lowers each invoice, keyed by `allocationKey(note, invoice)`: the
 * invoices' histories walked together by date (a note dated up to a payment's date comes before
 * it), each note taking from its invoices in list order up to each balance. Invoices not given, in
 * another currency or PUE take nothing.
 */
export function allocateCredits(
  invoices: AllocationInvoice[],
  payments: AllocationPayment[],
  notes: AllocationNote[],
): Map<string, number> {
  const byUuid = new Map(invoices.map((i) => [i.uuid, i]));
  const balance = new Map(invoices.filter((i) => i.ppd).map((i) => [i.uuid, i.total]));
  // Same instant: notes before payments, notes by UUID (an order for notes issued together).
  type Event = { fecha: string; key: string; payment?: AllocationPayment; note?: AllocationNote };
  const events: Event[] = [
    ...notes.map((note): Event => ({ fecha: note.fecha, key: `0${note.uuid}`, note })),
    ...payments.map((payment): Event => ({ fecha: payment.fecha, key: '1', payment })),
  ].sort((a, b) =>
    a.fecha < b.fecha ? -1 : a.fecha > b.fecha ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
  );
  const allocated = new Map<string, number>();
  for (const { payment, note } of events) {
    if (payment) {
      const left = balance.get(payment.uuid);
      if (left !== undefined) balance.set(payment.uuid, cents(left - payment.amount));
      continue;
    }
    if (!note) continue;
    let remaining = note.total;
    for (const uuid of new Set(note.related)) {
      const left = balance.get(uuid);
      if (left === undefined || byUuid.get(uuid)?.moneda !== note.moneda || remaining <= 0) continue;
      const take = cents(Math.min(remaining, Math.max(0, left)));
      allocated.set(allocationKey(note.uuid, uuid), take);
      balance.set(uuid, cents(left - take));
      remaining = cents(remaining - take);
    }
  }
  return allocated;
}
