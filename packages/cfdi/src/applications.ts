// A REP's payments flattened into one application per paid invoice, keyed by the invoice UUID
// (stored without a foreign key so a REP imported before its invoice still counts later).

import { round2 } from './money';
import type { PaymentApplication } from './payment-status';
import type { Cfdi, ImpuestosDR, MetodoPago } from './types';

/** Plus what the DoctoRelacionado carries for a currency view, the contract's FacturaRelacionada and the tax reports. */
export type RelatedApplication = PaymentApplication & {
  relatedUuid: string;
  equivalenciaDR: number;
  metodoPagoDR?: MetodoPago;
  /** MXN per unit of monedaP. */
  tipoCambioP: number;
  /** Absent when the complement states no taxes for the document (Pagos 1.0, no ImpuestosDR). */
  impuestosDR?: ImpuestosDR;
};

/**
 * Documents whose paid amount is unknown (Pagos 1.0 without ImpPagado) are left out. Pagos 1.0
 * may also omit the installment fields for PUE invoices: such a payment is taken as installment
 * 1 that settles what it pays. The same invoice + installment twice in one REP counts once
 * (docs/cfdi.md#payment-status: the same REP installment counts once).
 */
export function applicationsFrom(rep: Cfdi): RelatedApplication[] {
  const seen = new Set<string>();
  const out: RelatedApplication[] = [];
  for (const pago of rep.pagos ?? []) {
    for (const d of pago.doctos) {
      if (d.impPagado === undefined) continue;
      const numParcialidad = d.numParcialidad ?? 1;
      const key = `${d.uuid}|${numParcialidad}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const impSaldoAnt = d.impSaldoAnt ?? d.impPagado;
      out.push({
        relatedUuid: d.uuid,
        repUuid: rep.uuid,
        fechaPago: pago.fechaPago,
        formaPago: pago.formaPago,
        monedaP: pago.monedaP,
        tipoCambioP: pago.tipoCambioP,
        monto: pago.monto,
        ...(pago.numOperacion !== undefined && { numOperacion: pago.numOperacion }),
        monedaDR: d.monedaDR,
        equivalenciaDR: d.equivalenciaDR,
        ...(d.metodoPagoDR !== undefined && { metodoPagoDR: d.metodoPagoDR }),
        numParcialidad,
        impSaldoAnt,
        impPagado: d.impPagado,
        impSaldoInsoluto: d.impSaldoInsoluto ?? Math.max(0, round2(impSaldoAnt - d.impPagado)),
        ...(d.impuestosDR !== undefined && { impuestosDR: d.impuestosDR }),
      });
    }
  }
  return out;
}

/** The parties of the REP an application comes from, and of the invoice it names. */
export interface Parties {
  rfcEmisor: string;
  rfcReceptor: string;
}

/**
 * Only the payee issues a REP (CFF 29-A fr. VII b): an application counts only when the REP's emisor
 * is the invoice's emisor. Any other stays unapplied, with a warning for the REP; a REP from the
 * payee to another receptor than the invoice's counts, with a warning for the invoice.
 */
export function payeeApplications<A extends PaymentApplication & { rep: Parties }>(
  invoice: Parties & { uuid: string },
  applications: A[],
): { applied: A[]; invoiceWarnings: string[]; unapplied: Array<{ application: A; warning: string }> } {
  const applied: A[] = [];
  const invoiceWarnings: string[] = [];
  const unapplied: Array<{ application: A; warning: string }> = [];
  for (const a of applications) {
    const { rep } = a;
    if (rep.rfcEmisor !== invoice.rfcEmisor) {
      unapplied.push({
        application: a,
        warning: `el pago a la factura ${invoice.uuid} no se aplica: el emisor del complemento (${rep.rfcEmisor}) no es el emisor de la factura (${invoice.rfcEmisor})`,
      });
      continue;
    }
    if (rep.rfcReceptor !== invoice.rfcReceptor) {
      invoiceWarnings.push(
        `complemento ${a.repUuid}: su receptor (${rep.rfcReceptor}) no es el receptor de la factura (${invoice.rfcReceptor})`,
      );
    }
    applied.push(a);
  }
  return { applied, invoiceWarnings, unapplied };
}
