// A REP's payments flattened into one application per paid invoice, keyed by the invoice UUID
// (stored without a foreign key so a REP imported before its invoice still counts later).

import { round2 } from './money';
import type { PaymentApplication } from './payment-status';
import type { Cfdi, MetodoPago } from './types';

/** Plus what the DoctoRelacionado carries for a currency view and the contract's FacturaRelacionada. */
export type RelatedApplication = PaymentApplication & {
  relatedUuid: string;
  equivalenciaDR: number;
  metodoPagoDR?: MetodoPago;
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
        monto: pago.monto,
        ...(pago.numOperacion !== undefined && { numOperacion: pago.numOperacion }),
        monedaDR: d.monedaDR,
        equivalenciaDR: d.equivalenciaDR,
        ...(d.metodoPagoDR !== undefined && { metodoPagoDR: d.metodoPagoDR }),
        numParcialidad,
        impSaldoAnt,
        impPagado: d.impPagado,
        impSaldoInsoluto: d.impSaldoInsoluto ?? Math.max(0, round2(impSaldoAnt - d.impPagado)),
      });
    }
  }
  return out;
}
