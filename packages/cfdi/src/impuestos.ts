// Tax totals per docs/cfdi.md#reading-a-document: the comprobante-level Impuestos node when present (the
// figures SAT validates), otherwise the sum of the concept-level taxes; plus the local taxes of the
// implocal complement, which also enter the Total.

import { round2 } from './money';
import { NS } from './namespaces';
import { CfdiRejection } from './rejection';
import type { CfdiImpuestos } from './types';
import { child, children, grandchildren, MAX_AMOUNT, optionalDecimal } from './xml-read';
import type { XmlElement } from './xml-tree';

const ISR = '001';
const IVA = '002';

export interface TaxTotals {
  impuestos: CfdiImpuestos;
  /** All transferred / withheld taxes (any Impuesto), for the Total consistency check. */
  trasladados: number;
  retenidos: number;
  /** Net local taxes (implocal): TotaldeTraslados − TotaldeRetenciones. */
  locales: number;
}

export function readImpuestos(comprobante: XmlElement, ns: string, complementos: XmlElement[]): TaxTotals {
  const global = child(comprobante, ns, 'Impuestos');
  const conceptTaxes = grandchildren(comprobante, ns, 'Conceptos', 'Concepto').flatMap((c) =>
    children(c, ns, 'Impuestos'),
  );
  const sources = global ? [global] : conceptTaxes;
  const traslados = sources.flatMap((i) => grandchildren(i, ns, 'Traslados', 'Traslado'));
  const retenciones = sources.flatMap((i) => grandchildren(i, ns, 'Retenciones', 'Retencion'));
  const conceptTraslados = conceptTaxes.flatMap((i) => grandchildren(i, ns, 'Traslados', 'Traslado'));

  const totalTrasladados = global && optionalDecimal(global, 'TotalImpuestosTrasladados');
  const totalRetenidos = global && optionalDecimal(global, 'TotalImpuestosRetenidos');
  const ivaRate = dominantIvaRate(conceptTraslados) ?? dominantIvaRate(traslados);
  const impuestos: CfdiImpuestos = {
    trasladosIva: sumImporte(traslados, IVA),
    retencionIva: sumImporte(retenciones, IVA),
    retencionIsr: sumImporte(retenciones, ISR),
    ...(ivaRate !== undefined && { ivaRate }),
    ...(totalTrasladados !== undefined && { totalTrasladados }),
    ...(totalRetenidos !== undefined && { totalRetenidos }),
  };
  return {
    impuestos,
    trasladados: totalTrasladados ?? sumImporte(traslados),
    retenidos: totalRetenidos ?? sumImporte(retenciones),
    locales: complementos
      .flatMap((c) => children(c, NS.implocal, 'ImpuestosLocales'))
      .reduce(
        (sum, l) =>
          sum +
          (optionalDecimal(l, 'TotaldeTraslados') ?? 0) -
          (optionalDecimal(l, 'TotaldeRetenciones') ?? 0),
        0,
      ),
  };
}

// Exento traslados carry no Importe.
function sumImporte(taxes: XmlElement[], impuesto?: string): number {
  let sum = 0;
  for (const t of taxes) {
    if (impuesto === undefined || t.attrs.Impuesto === impuesto) sum += optionalDecimal(t, 'Importe') ?? 0;
  }
  if (sum >= MAX_AMOUNT) throw new CfdiRejection(`suma de impuestos fuera de rango: ${sum}`);
  return round2(sum);
}

// A CFDI may mix rates (16 % and 0 %): report the one with the largest base (product decision,
// docs/cfdi.md#reading-a-document). Concept-level traslados always carry Base; 3.3 global ones do not, so
// there the Importe is the weight.
function dominantIvaRate(traslados: XmlElement[]): number | undefined {
  const weightByRate = new Map<number, number>();
  for (const t of traslados) {
    if (t.attrs.Impuesto !== IVA || t.attrs.TipoFactor !== 'Tasa') continue;
    const rate = optionalDecimal(t, 'TasaOCuota');
    if (rate === undefined) continue;
    // IVA is charged at 0, 8 or 16 % (withheld at most 16 %): a rate over 100 % is no CFDI's.
    if (rate > 1) throw new CfdiRejection(`TasaOCuota de IVA fuera de rango: ${rate}`);
    const weight = optionalDecimal(t, 'Base') ?? optionalDecimal(t, 'Importe') ?? 0;
    weightByRate.set(rate, (weightByRate.get(rate) ?? 0) + weight);
  }
  let best: [number, number] | undefined;
  for (const entry of weightByRate) if (!best || entry[1] > best[1]) best = entry;
  return best && Number((best[0] * 100).toFixed(4));
}
