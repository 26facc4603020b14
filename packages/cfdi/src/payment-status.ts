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

export function computeEstadoPago(
  invoice: InvoiceAmounts,
  applications: PaymentApplication[],
  manual: ManualPayment[],
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
  // PUE (and anything without MetodoPago, see tipoOf) and nómina are paid when issued.
  if (invoice.metodoPago !== 'PPD' || invoice.tipoDeComprobante === 'N') {
    if (apps.length > 0) advertencias.push('complemento de pago que referencia una factura PUE');
  } else {
    const paidRep = round2(apps.reduce((sum, a) => sum + a.impPagado, 0));
    totalPagado = round2(paidRep + payments.reduce((sum, p) => sum + p.monto, 0));
    // With REPs only, the issuer's own running balance is the authority (it already reflects
    // credit notes); manual payments are outside it, so then the balance is recomputed.
    saldoPendiente = Math.max(
      0,
      round2(last && payments.length === 0 ? last.impSaldoInsoluto : total - totalPagado),
    );
    installmentWarnings(total, apps, advertencias);
    if (totalPagado > total && !sameAmount(totalPagado, total)) {
      advertencias.push(`sobrepago: pagado ${totalPagado.toFixed(2)} > total ${total.toFixed(2)}`);
    } else if (last && !sameAmount(last.impSaldoInsoluto, total - paidRep)) {
      advertencias.push(
        `saldo insoluto del último complemento (${last.impSaldoInsoluto.toFixed(2)}) ≠ total − pagado por complementos (${round2(total - paidRep).toFixed(2)})`,
      );
    }
  }

  const completamentePagado = saldoPendiente <= AMOUNT_TOLERANCE;
  const estadoPago: EstadoPago = {
    estado: completamentePagado ? 'PAGADO' : totalPagado > 0 ? 'PAGO_PARCIAL' : 'NO_PAGADO',
    totalFactura: total,
    totalPagado,
    saldoPendiente,
    porcentajePagado: total > 0 ? Math.min(100, round2((totalPagado / total) * 100)) : 100,
    completamentePagado,
    ...(last && { ultimoSaldoInsoluto: round2(last.impSaldoInsoluto) }),
    tieneComplementos: applications.length > 0,
    tienePagosManuales: manual.length > 0,
  };
  return { estadoPago, advertencias };
}

/** For Expense.payment_date: the latest fechaPago once PAGADO. PUE without payment records has none (use Fecha). */
export function paymentDate(
  estadoPago: EstadoPago,
  applications: PaymentApplication[],
  manual: ManualPayment[],
): string | undefined {
  if (estadoPago.estado !== 'PAGADO') return undefined;
  const dates = [...applications, ...manual].map((p) => p.fechaPago).sort();
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

function installmentWarnings(total: number, apps: PaymentApplication[], advertencias: string[]): void {
  const repsByNumber = new Map<number, string[]>();
  for (const a of apps)
    repsByNumber.set(a.numParcialidad, [...(repsByNumber.get(a.numParcialidad) ?? []), a.repUuid]);
  for (const [n, reps] of repsByNumber) {
    if (reps.length > 1) advertencias.push(`parcialidad ${n} en varios complementos: ${reps.join(', ')}`);
  }
  const max = Math.max(0, ...repsByNumber.keys());
  const missing = Array.from({ length: max }, (_, i) => i + 1).filter((n) => !repsByNumber.has(n));
  if (missing.length > 0) advertencias.push(`faltan parcialidades: ${missing.join(', ')}`);
  for (const a of apps) {
    if (a.numParcialidad === 1 && !sameAmount(a.impSaldoAnt, total)) {
      advertencias.push(
        `saldo anterior de la parcialidad 1 (${a.impSaldoAnt.toFixed(2)}) ≠ total de la factura (${total.toFixed(2)})`,
      );
    }
  }
}
