// Tax totals per docs/cfdi.md#reading-a-document: the comprobante-level Impuestos node when present (the
// figures SAT validates), otherwise the sum of the concept-level taxes; plus the local taxes of the
// implocal complement, which also enter the Total.

import { round2, round6 } from './money';
import { NS } from './namespaces';
import { CfdiRejection } from './rejection';
import type { CfdiImpuestos, ImpuestosDR, TaxesByRate } from './types';
import { child, children, grandchildren, MAX_AMOUNT, optionalDecimal } from './xml-read';
import type { XmlElement } from './xml-tree';

const ISR = '001';
const IVA = '002';
const IEPS = '003';

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
  // By rate from the comprobante level when it states every base; CFDI 3.3 has no Base there (nor
  // its exempt lines), so there the concepts' traslados are summed (docs/cfdi.md#taxes-by-rate).
  const globalTraslados = global ? grandchildren(global, ns, 'Traslados', 'Traslado') : [];
  const globalHasBases = globalTraslados.length > 0 && globalTraslados.every((t) => t.attrs.Base);
  const impuestos: CfdiImpuestos = {
    trasladosIva: sumImporte(traslados, IVA),
    retencionIva: sumImporte(retenciones, IVA),
    retencionIsr: sumImporte(retenciones, ISR),
    porTasa: taxesByRate(globalHasBases ? globalTraslados : conceptTraslados, ''),
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

/** A Pagos 2.0 DoctoRelacionado's ImpuestosDR, or undefined when it has none. */
export function readImpuestosDR(docto: XmlElement, ns: string): ImpuestosDR | undefined {
  const node = child(docto, ns, 'ImpuestosDR');
  if (!node) return undefined;
  const retenciones = grandchildren(node, ns, 'RetencionesDR', 'RetencionDR');
  const retained = (impuesto: string) =>
    round6(
      retenciones
        .filter((r) => r.attrs.ImpuestoDR === impuesto)
        .reduce((sum, r) => sum + (optionalDecimal(r, 'ImporteDR') ?? 0), 0),
    );
  return {
    ...taxesByRate(grandchildren(node, ns, 'TrasladosDR', 'TrasladoDR'), 'DR'),
    retencionIva: retained(IVA),
    retencionIsr: retained(ISR),
  };
}

const sameRate = (rate: number, expected: number) => Math.abs(rate - expected) < 1e-6;

/**
 * Traslado (suffix '') or TrasladoDR ('DR') lines summed by kind. IVA at a rate other than 16, 8
 * or 0 % is in no c_TasaOCuota for traslados and is left out here (it still counts in iva_amount).
 */
function taxesByRate(traslados: XmlElement[], suffix: '' | 'DR'): TaxesByRate {
  const sums: TaxesByRate = { base16: 0, iva16: 0, base8: 0, iva8: 0, base0: 0, baseExenta: 0, ieps: 0 };
  for (const t of traslados) {
    const base = optionalDecimal(t, `Base${suffix}`) ?? 0;
    const importe = optionalDecimal(t, `Importe${suffix}`) ?? 0;
    const impuesto = t.attrs[`Impuesto${suffix}`];
    if (impuesto === IEPS) sums.ieps += importe;
    if (impuesto !== IVA) continue;
    if (t.attrs[`TipoFactor${suffix}`] === 'Exento') {
      sums.baseExenta += base;
      continue;
    }
    const rate = optionalDecimal(t, `TasaOCuota${suffix}`);
    if (rate === undefined) continue;
    if (sameRate(rate, 0.16)) {
      sums.base16 += base;
      sums.iva16 += importe;
    } else if (sameRate(rate, 0.08)) {
      sums.base8 += base;
      sums.iva8 += importe;
    } else if (rate === 0) sums.base0 += base;
  }
  for (const key of Object.keys(sums) as (keyof TaxesByRate)[]) {
    if (sums[key] >= MAX_AMOUNT) throw new CfdiRejection(`suma de impuestos fuera de rango: ${sums[key]}`);
    sums[key] = round6(sums[key]);
  }
  return sums;
}
