// What a document is worth in pesos: Total × TipoCambio, pesos per unit of Moneda
// (docs/cfdi.md#currency). MXN is itself; XXX (payment complements, traslados) has nothing to convert.

import { round2 } from './money';

export function totalMxn(
  total: number,
  moneda: string,
  tipoCambio: number | null | undefined,
): { totalMxn: number | null; advertencia?: string } {
  if (moneda === 'MXN' || moneda === 'XXX') return { totalMxn: total };
  if (tipoCambio === null || tipoCambio === undefined || tipoCambio <= 0) {
    return {
      totalMxn: null,
      advertencia: `documento en ${moneda} sin TipoCambio: no se puede convertir a MXN`,
    };
  }
  return { totalMxn: round2(total * tipoCambio) };
}
