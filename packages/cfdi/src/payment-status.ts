// estadoPago of an invoice from its REP payment applications and manual payments, exactly the
// computation of docs/cfdi.md#payment-status. Every finding is a warning, never an error.

import { AMOUNT_TOLERANCE, round2, sameAmount } from './money';
import type { MetodoPago } from './types';

export type Estado = 'PAGADO' | 'PAGO_PARCIAL' | 'NO_PAGADO';

/** The contract's EstadoPago. */
export interface EstadoPago {
  estado: Estado;
  totalFactura: number;
  totalPagado: number;
  saldoPendiente: number;
  /** 0-100, 2 decimals. */
  porcentajePagado: number;
  completamentePagado: boolean;
  /** ImpSaldoInsoluto of the last installment; only when a REP application counts. */
  ultimoSaldoInsoluto?: number;
  /** Σ Total of the credit notes (E, TipoRelacion 01) counted against a PPD invoice; only when > 0. */
  notasCredito?: number;
  tieneComplementos: boolean;
  tienePagosManuales: boolean;
}

/** One DoctoRelacionado of a REP applied to one invoice. Amounts in monedaDR. */
export interface PaymentApplication {
  repUuid: string;
  fechaPago: string;
  formaPago: string;
  monedaP: string;
  /** The whole Pago's Monto, in monedaP (it may cover several invoices). */
  monto?: number;
  numOperacion?: string;
  monedaDR: string;
  numParcialidad: number;
  impSaldoAnt: number;
  impPagado: number;
  impSaldoInsoluto: number;
}

/** A payment the user recorded by hand (the contract's Pago). */
export interface ManualPayment {
  fechaPago: string;
  formaPago: string;
  monedaPago: string;
  monto: number;
  numOperacion?: string;
}

export interface InvoiceAmounts {
  total: number;
  moneda: string;
  metodoPago?: MetodoPago;
  tipoDeComprobante: string;
}

/** A credit note (TipoDeComprobante E) relating to the invoice by TipoRelacion 01. */
export interface CreditNote {
  uuid: string;
  /** Comprobante@Fecha as written: it orders the note against the payments' FechaPago. */
  fecha: string;
  total: number;
  moneda: string;
}

/**
 * `credits` count only against a PPD invoice (a PUE one is paid at issue). The balance follows the
 * amounts paid and credited, each at its date: Total − Σ ImpPagado − Σ manual payments − Σ credit
 * notes, never a complement's stated ImpSaldoInsoluto (tax-rules §3, which replaces issue 12's "SAT's
 * last word wins": a REP that contradicts its own payment would otherwise settle an invoice nobody
 * paid). A complement that disagrees with that history is flagged defective.
 */
export function computeEstadoPago(
  invoice: InvoiceAmounts,
  applications: PaymentApplication[],
  manual: ManualPayment[],
  credits: CreditNote[] = [],
): { estadoPago: EstadoPago; advertencias: string[] } {
  const advertencias: string[] = [];
  const total = round2(invoice.total);
  const apps = countedApplications(invoice.moneda, applications, advertencias);
  const payments = manual.filter((p) => {
    // No exchange rate to convert with: counting it would mix currencies.
    if (p.monedaPago === invoice.moneda) return true;
    advertencias.push(`pago manual en ${p.monedaPago} para una factura en ${invoice.moneda}: no se suma`);
    return false;
  });
  const last = lastInstallment(apps);

  let totalPagado = total;
  let saldoPendiente = 0;
  let notasCredito = 0;
  // PUE (and anything without MetodoPago, see tipoOf) and nómina are paid when issued.
  if (invoice.metodoPago !== 'PPD' || invoice.tipoDeComprobante === 'N') {
    if (apps.length > 0) advertencias.push('complemento de pago que referencia una factura PUE');
  } else {
    const notes = countedCredits(invoice.moneda, credits, advertencias);
    notasCredito = sumOf(notes.map((n) => n.total));
    totalPagado = round2(sumOf(apps.map((a) => a.impPagado)) + sumOf(payments.map((p) => p.monto)));
    saldoPendiente = Math.max(0, round2(total - totalPagado - notasCredito));
    installmentWarnings(apps, advertencias);
    defectiveWarnings(total, apps, payments, notes, advertencias);
    if (totalPagado + notasCredito > total && !sameAmount(totalPagado + notasCredito, total)) {
      const credited = notasCredito > 0 ? ` + notas de crédito ${notasCredito.toFixed(2)}` : '';
      advertencias.push(`sobrepago: pagado ${totalPagado.toFixed(2)}${credited} > total ${total.toFixed(2)}`);
    }
  }

  // Everything below derives from the one balance that decides the state.
  const completamentePagado = saldoPendiente <= AMOUNT_TOLERANCE;
  const settled = total - saldoPendiente;
  const estadoPago: EstadoPago = {
    estado: completamentePagado ? 'PAGADO' : settled > AMOUNT_TOLERANCE ? 'PAGO_PARCIAL' : 'NO_PAGADO',
    totalFactura: total,
    totalPagado,
    saldoPendiente,
    porcentajePagado: total > 0 ? Math.min(100, Math.max(0, round2((settled / total) * 100))) : 100,
    completamentePagado,
    ...(last && { ultimoSaldoInsoluto: round2(last.impSaldoInsoluto) }),
    ...(notasCredito > 0 && { notasCredito }),
    tieneComplementos: applications.length > 0,
    tienePagosManuales: manual.length > 0,
  };
  return { estadoPago, advertencias };
}

const sumOf = (amounts: number[]) => round2(amounts.reduce((sum, a) => sum + a, 0));

// A note in another currency cannot be subtracted without a rate; the same note twice counts once.
function countedCredits(moneda: string, credits: CreditNote[], advertencias: string[]): CreditNote[] {
  const seen = new Set<string>();
  return credits.filter((n) => {
    if (n.moneda !== moneda) {
      advertencias.push(
        `nota de crédito ${n.uuid} en ${n.moneda} para una factura en ${moneda}: no se resta`,
      );
      return false;
    }
    if (seen.has(n.uuid)) return false;
    seen.add(n.uuid);
    return true;
  });
}

/**
 * For Expense.payment_date: the latest fechaPago once PAGADO, or the date of the last credit note
 * that lowered a PPD invoice's balance when one settled it (`credits`: the parts counted, tax-rules
 * §3). PUE without payment records has none (use Fecha).
 */
export function paymentDate(
  estadoPago: EstadoPago,
  applications: PaymentApplication[],
  manual: ManualPayment[],
  credits: CreditNote[] = [],
): string | undefined {
  if (estadoPago.estado !== 'PAGADO') return undefined;
  const dates = [
    ...[...applications, ...manual].map((p) => p.fechaPago),
    ...credits.filter((n) => n.total > 0).map((n) => n.fecha),
  ].sort();
  return dates.at(-1);
}

// Drops applications in another currency (ImpPagado is in MonedaDR, which must be the invoice's)
// and the same REP installment imported twice.
function countedApplications(moneda: string, applications: PaymentApplication[], advertencias: string[]) {
  const seen = new Set<string>();
  return applications.filter((a) => {
    if (a.monedaDR !== moneda) {
      advertencias.push(
        `complemento ${a.repUuid} en ${a.monedaDR} para una factura en ${moneda}: no se suma`,
      );
      return false;
    }
    const key = `${a.repUuid}|${a.numParcialidad}`;
    if (seen.has(key)) {
      advertencias.push(
        `complemento ${a.repUuid} repetido (parcialidad ${a.numParcialidad}): se cuenta una vez`,
      );
      return false;
    }
    seen.add(key);
    return true;
  });
}

// Highest NumParcialidad; ties go to the latest FechaPago, then to the later application.
function lastInstallment(apps: PaymentApplication[]): PaymentApplication | undefined {
  let last: PaymentApplication | undefined;
  for (const a of apps) {
    if (!last || a.numParcialidad > last.numParcialidad) last = a;
    else if (a.numParcialidad === last.numParcialidad && a.fechaPago >= last.fechaPago) last = a;
  }
  return last;
}

/** NumParcialidad repeated in several complements, or skipped (tax-rules §3: a defective REP). */
function installmentWarnings(apps: PaymentApplication[], advertencias: string[]): void {
  const repsByNumber = new Map<number, string[]>();
  for (const a of apps)
    repsByNumber.set(a.numParcialidad, [...(repsByNumber.get(a.numParcialidad) ?? []), a.repUuid]);
  for (const [n, reps] of repsByNumber) {
    if (reps.length > 1) advertencias.push(`parcialidad ${n} en varios complementos: ${reps.join(', ')}`);
  }
  const max = Math.max(0, ...repsByNumber.keys());
  const missing = Array.from({ length: max }, (_, i) => i + 1).filter((n) => !repsByNumber.has(n));
  if (missing.length > 0) advertencias.push(`faltan parcialidades: ${missing.join(', ')}`);
}

/**
 * Walks the invoice's dated history (payments, manual payments, credit notes; a note dated up to a
 * payment's FechaPago comes before it) and flags each complement whose ImpSaldoAnt is not the
 * balance at its FechaPago, or whose ImpSaldoInsoluto is not ImpSaldoAnt − ImpPagado.
 */
function defectiveWarnings(
  total: number,
  apps: PaymentApplication[],
  manual: ManualPayment[],
  notes: CreditNote[],
  advertencias: string[],
): void {
  type Event = { fecha: string; order: number; amount: number; app?: PaymentApplication };
  const events: Event[] = [
    ...notes.map((n) => ({ fecha: n.fecha, order: 0, amount: n.total })),
    ...manual.map((m) => ({ fecha: m.fechaPago, order: 1, amount: m.monto })),
    ...apps.map((a) => ({ fecha: a.fechaPago, order: 1, amount: a.impPagado, app: a })),
  ].sort((a, b) => (a.fecha < b.fecha ? -1 : a.fecha > b.fecha ? 1 : a.order - b.order));
  let balance = total;
  for (const e of events) {
    const a = e.app;
    if (a) {
      const which = `complemento ${a.repUuid} (parcialidad ${a.numParcialidad}) defectuoso`;
      if (!sameAmount(a.impSaldoAnt, balance)) {
        advertencias.push(
          `${which}: ImpSaldoAnt ${a.impSaldoAnt.toFixed(2)} ≠ saldo a su FechaPago según pagos y notas (${round2(balance).toFixed(2)})`,
        );
      }
      const insoluto = round2(a.impSaldoAnt - a.impPagado);
      if (!sameAmount(a.impSaldoInsoluto, insoluto)) {
        advertencias.push(
          `${which}: ImpSaldoInsoluto ${a.impSaldoInsoluto.toFixed(2)} ≠ ImpSaldoAnt − ImpPagado (${insoluto.toFixed(2)})`,
        );
      }
    }
    balance = round2(balance - e.amount);
  }
}
