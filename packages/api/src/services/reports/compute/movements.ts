import { push } from '../../group';
import { type Dec, dec, mul, ONE, ratio, ZERO } from './decimal';
import {
  docTaxes,
  EMPTY_TASAS,
  type Movements,
  monthOf,
  mxnRate,
  NOMBRE_SIN_RFC,
  partyOf,
  porTasaOf,
  RFC_GENERICO,
  scaleTaxes,
  type Taxes,
} from './doc-taxes';
import { factsOfDoc, factsOfManual } from './iva-creditable';
import { addNoteCash } from './notes';
import { actosOf } from './proportion';
import type { ReportDoc, ReportManualExpense, ReportPayment, ReportRows } from './rows';
import { CHUNK, finish, type Steps } from './steps';

// Every document, payment and manual expense turned into dated movements in MXN, exact (Dec): what
// accrues (by the document's Fecha) and what moves cash (PUE on its date, PPD by each payment's
// FechaPago, credit notes by tax-rules §2 in notes.ts, manual expenses on their payment_date). The
// report sums them.

/**
 * Per month, the CFDI its figures read that still wait for the tax-detail back-fill: how many of
 * the documents dated in it, and by UUID the complements and invoices of its payments (a set: one
 * complement may pay several invoices, an invoice dated in the month is among its documents).
 */
type PendingDetail = Map<string, { documents: number; paymentCfdi: Set<string> }>;

const noRate = (what: string, moneda: string) =>
  `${what} en ${moneda} sin tipo de cambio: no se cuenta en los importes`;

/** The period's movements, pausing every CHUNK documents or payments (steps.ts). */
export function* collectingMovements(rows: ReportRows): Steps<Movements> {
  const m: Movements = { accrual: new Map(), cash: new Map(), warnings: new Map() };
  const pending: PendingDetail = new Map();
  const pendingIn = (month: string) => {
    let p = pending.get(month);
    if (!p) {
      p = { documents: 0, paymentCfdi: new Set() };
      pending.set(month, p);
    }
    return p;
  };
  let n = 0;
  for (const doc of rows.docs) {
    if (doc.pendingTaxDetail) pendingIn(monthOf(doc.fecha)).documents += doc.pendingTaxDetail;
    addDocument(m, doc);
    if (++n % CHUNK === 0) yield;
  }
  for (const payment of rows.payments) {
    const month = monthOf(payment.fechaPago);
    const { invoice } = payment;
    if (payment.repPendingTaxDetail) pendingIn(month).paymentCfdi.add(payment.ref);
    if (invoice?.pendingTaxDetail && monthOf(invoice.fecha) !== month) {
      pendingIn(month).paymentCfdi.add(invoice.uuid);
    }
    addPayment(m, payment);
    if (++n % CHUNK === 0) yield;
  }
  for (const expense of rows.manualExpenses) addManualExpense(m, expense);
  for (const note of rows.notes) addNoteCash(m, note);
  for (const [month, p] of pending)
    push(m.warnings, month, pendingDetailWarning(p.documents + p.paymentCfdi.size));
  return m;
}

/** `collectingMovements` straight through. */
export const collectMovements = (rows: ReportRows): Movements => finish(collectingMovements(rows));

/** The figures of CFDI stored before the tax detail existed lack it until the back-fill reaches them. */
const pendingDetailWarning = (n: number) =>
  `${n} CFDI del periodo aún ${n === 1 ? 'no tiene' : 'no tienen'} el desglose de IVA por tasa; ` +
  'las cifras se completarán cuando termine la actualización';

function addDocument(m: Movements, doc: ReportDoc) {
  const month = monthOf(doc.fecha);
  if (!doc.valido) {
    push(m.warnings, month, `CFDI ${doc.uuid} inválido: no se cuenta`);
    return;
  }
  const rate = mxnRate(doc.moneda, doc.tipoCambio);
  if (!rate) {
    push(m.warnings, month, noRate(`CFDI ${doc.uuid}`, doc.moneda));
    return;
  }
  const note = doc.tipoComprobante === 'E';
  const scale = note ? (v: Dec) => -mul(v, rate) : (v: Dec) => mul(v, rate);
  const t = scaleTaxes(docTaxes(doc), scale);
  const party = partyOf(doc);
  push(m.accrual, month, {
    side: doc.side,
    party,
    note,
    documentos: note ? 0 : doc.documentos,
    // A credit note lowers the subtotal by its net amount (its own discount already applied), and
    // its own withholdings, so subtotal + IVA − withholdings = total holds (tax-rules §2).
    subtotal: note ? t.base : mul(dec(doc.subtotal), rate),
    descuento: note ? ZERO : mul(dec(doc.descuento), rate),
    iva: t.iva,
    retIva: t.retIva,
    retIsr: t.retIsr,
    total: t.total,
  });
  // PUE is paid when issued; a credit note's cash follows its invoices (notes.ts).
  if (!note && doc.metodoPago === 'PUE') {
    const credit = doc.side === 'expense' ? factsOfDoc(doc, mul(dec(doc.total), rate)) : undefined;
    const actos = actosOf(doc, scale, t.porTasa);
    push(m.cash, month, {
      ...t,
      side: doc.side,
      party,
      doc: doc.id,
      documentos: doc.documentos,
      credit,
      actos,
    });
  }
}

function addPayment(m: Movements, p: ReportPayment) {
  const month = monthOf(p.fechaPago);
  const invoice = p.invoice;
  const label = p.source === 'rep' ? `complemento ${p.ref}` : `pago manual de ${p.ref}`;
  // A defective REP still counts by what it paid; the report says what is wrong with it.
  for (const defecto of p.defectos) push(m.warnings, month, `factura ${p.relatedUuid}: ${defecto}`);
  if (!invoice) {
    push(m.warnings, month, `${label}: paga la factura ${p.relatedUuid}, que no está en Folio; no se cuenta`);
    return;
  }
  // As the payment status: a complement from someone else than the invoice's issuer does not apply.
  if (p.source === 'rep' && p.rfcEmisor !== invoice.rfcEmisor) {
    push(m.warnings, month, `${label}: su emisor no es el de la factura ${invoice.uuid}; no se cuenta`);
    return;
  }
  // A PUE invoice counted on its own date; only PPD income and expenses move by payment.
  if (invoice.metodoPago !== 'PPD' || invoice.tipoComprobante !== 'I') return;
  if (!invoice.valido) {
    push(m.warnings, month, `${label}: paga el CFDI inválido ${invoice.uuid}; no se cuenta`);
    return;
  }
  const paid = paidInInvoiceCurrency(p, invoice.moneda);
  const rate = paymentRate(p, invoice);
  if (paid === null || !rate) {
    push(m.warnings, month, noRate(label, p.monedaP === 'MXN' ? invoice.moneda : p.monedaP));
    return;
  }
  const whole = docTaxes(invoice);
  const share = (v: Dec) => ratio(v, paid, whole.total);
  const proportional = scaleTaxes(whole, share);
  const t: Taxes = p.impuestosDr
    ? statedTaxes(p.impuestosDr, paid, proportional.base)
    : { ...proportional, total: paid };
  const moved = scaleTaxes(t, (v) => mul(v, rate));
  push(m.cash, month, {
    ...moved,
    side: invoice.side,
    party: partyOf(invoice),
    doc: invoice.id,
    documentos: 1,
    credit:
      invoice.side === 'expense'
        ? factsOfDoc({ ...invoice, formaPago: p.formaPago }, mul(whole.total, rate))
        : undefined,
    actos: actosOf(invoice, (v) => mul(share(v), rate), moved.porTasa),
  });
}

/** The complement's own TrasladosDR / RetencionesDR; the base is their IVA bases (else proportional). */
function statedTaxes(s: NonNullable<ReportPayment['impuestosDr']>, paid: Dec, proportionalBase: Dec): Taxes {
  const porTasa = porTasaOf(s.porTasa, ZERO, ZERO, null);
  const iva = porTasa.iva16 + porTasa.iva8;
  const stated = porTasa.base16 + porTasa.base8 + porTasa.base0 + porTasa.baseExenta;
  return {
    base: stated !== ZERO ? stated : proportionalBase,
    iva,
    retIva: dec(s.retencionIva),
    retIsr: dec(s.retencionIsr),
    total: paid,
    porTasa: stated !== ZERO ? porTasa : { ...EMPTY_TASAS, base0: proportionalBase },
  };
}

/** What the payment paid in the invoice's currency (ImpPagado is; a manual one must be). */
function paidInInvoiceCurrency(p: ReportPayment, moneda: string): Dec | null {
  if (p.source === 'rep') return dec(p.importe);
  return p.monedaP === moneda ? dec(p.importe) : null;
}

/**
 * Pesos per unit of the invoice's currency for this payment: TipoCambioP / EquivalenciaDR when the
 * complement carries its rate, else the invoice's own TipoCambio.
 */
function paymentRate(p: ReportPayment, invoice: ReportDoc): Dec | null {
  if (invoice.moneda === 'MXN') return ONE;
  // The import stores 1 where the XML omits TipoCambioP: for a foreign MonedaP that is no rate at all.
  const carried = p.monedaP === 'MXN' ? dec(1) : dec(p.tipoCambioP);
  const tipoCambioP = p.monedaP !== 'MXN' && carried === dec(1) ? ZERO : carried;
  const equivalencia = p.monedaP === invoice.moneda ? dec(1) : dec(p.equivalenciaDr);
  if (p.source === 'rep' && tipoCambioP > ZERO && equivalencia > ZERO) {
    return ratio(tipoCambioP, dec(1), equivalencia);
  }
  return mxnRate(invoice.moneda, invoice.tipoCambio);
}

function addManualExpense(m: Movements, e: ReportManualExpense) {
  const party = e.rfcEmisor
    ? { rfc: e.rfcEmisor, nombre: e.nombreEmisor ?? e.rfcEmisor }
    : { rfc: RFC_GENERICO, nombre: NOMBRE_SIN_RFC };
  const base = dec(e.subtotal);
  const iva = dec(e.ivaAmount);
  const total = dec(e.total);
  push(m.accrual, monthOf(e.fecha), {
    side: 'expense',
    party,
    note: false,
    documentos: 1,
    subtotal: base,
    descuento: ZERO,
    iva,
    retIva: ZERO,
    retIsr: ZERO,
    total,
  });
  if (e.isPaid && e.paymentDate) {
    push(m.cash, monthOf(e.paymentDate), {
      side: 'expense',
      party,
      doc: `manual:${e.id}`,
      documentos: 1,
      base,
      iva,
      retIva: ZERO,
      retIsr: ZERO,
      total,
      porTasa: porTasaOf(null, base, iva, e.ivaTasa),
      credit: factsOfManual({ ...e, total }),
    });
  }
}
