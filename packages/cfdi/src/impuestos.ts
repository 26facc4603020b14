// Tax totals per docs/cfdi.md#reading-a-document: the comprobante-level Impuestos node when present (the
// figures SAT validates), otherwise the sum of the concept-level taxes; plus the local taxes of the
// implocal complement, which also enter the Total.

import { round2, round6 } from './money';
import { NS } from './namespaces';
import { CfdiRejection } from './rejection';
import type { CfdiImpuestos, ImpuestosDR, RetencionPorTasa, TaxesByRate } from './types';
import {
  child,
  childrenOfEach,
  grandchildren,
  grandchildrenOfEach,
  MAX_AMOUNT,
  optionalDecimal,
} from './xml-read';
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

/** `conceptos`: the Concepto elements of `comprobante`, which the caller reads too. */
export function readImpuestos(
  comprobante: XmlElement,
  ns: string,
  conceptos: XmlElement[],
  complementos: XmlElement[],
): TaxTotals {
  const global = child(comprobante, ns, 'Impuestos');
  const conceptTaxes = childrenOfEach(conceptos, ns, 'Impuestos');
  const sources = global ? [global] : conceptTaxes;
  const traslados = grandchildrenOfEach(sources, ns, 'Traslados', 'Traslado');
  const retenciones = grandchildrenOfEach(sources, ns, 'Retenciones', 'Retencion');
  const conceptTraslados = global
    ? grandchildrenOfEach(conceptTaxes, ns, 'Traslados', 'Traslado')
    : traslados;

  const totalTrasladados = global && optionalDecimal(global, 'TotalImpuestosTrasladados');
  const totalRetenidos = global && optionalDecimal(global, 'TotalImpuestosRetenidos');
  const ivaRate = dominantIvaRate(conceptTraslados) ?? dominantIvaRate(traslados);
  // By rate from the comprobante level when it states every base; CFDI 3.3 has no Base there (nor
  // its exempt lines), so there the concepts' traslados are summed (docs/cfdi.md#taxes-by-rate).
  const globalHasBases = global !== undefined && traslados.length > 0 && traslados.every((t) => t.attrs.Base);
  const impuestos: CfdiImpuestos = {
    trasladosIva: sumImporte(traslados, IVA),
    retencionIva: sumImporte(retenciones, IVA),
    retencionIsr: sumImporte(retenciones, ISR),
    porTasa: taxesByRate(globalHasBases ? traslados : conceptTraslados, ''),
    retencionesPorTasa: retencionesPorTasa(
      global ? grandchildrenOfEach(conceptTaxes, ns, 'Retenciones', 'Retencion') : retenciones,
      retenciones,
    ),
  };
  if (ivaRate !== undefined) impuestos.ivaRate = ivaRate;
  if (totalTrasladados !== undefined) impuestos.totalTrasladados = totalTrasladados;
  if (totalRetenidos !== undefined) impuestos.totalRetenidos = totalRetenidos;
  const trasladados = totalTrasladados ?? sumImporte(traslados);
  const retenidos = totalRetenidos ?? sumImporte(retenciones);
  let locales = 0;
  for (const l of childrenOfEach(complementos, NS.implocal, 'ImpuestosLocales')) {
    locales =
      locales +
      (optionalDecimal(l, 'TotaldeTraslados') ?? 0) -
      (optionalDecimal(l, 'TotaldeRetenciones') ?? 0);
  }
  return { impuestos, trasladados, retenidos, locales };
}

/**
 * The concepts' withholdings summed per tax and rate (a concept's Retencion states its TasaOCuota
 * and Base); when no concept states one, the comprobante's, which have neither (rate absent).
 */
function retencionesPorTasa(conceptLines: XmlElement[], globalLines: XmlElement[]): RetencionPorTasa[] {
  const out: RetencionPorTasa[] = [];
  const lines = conceptLines.length > 0 ? conceptLines : globalLines;
  for (const r of lines) {
    const impuesto = r.attrs.Impuesto === ISR ? 'ISR' : r.attrs.Impuesto === IVA ? 'IVA' : undefined;
    if (!impuesto) continue;
    const tasa = optionalDecimal(r, 'TasaOCuota');
    const base = optionalDecimal(r, 'Base') ?? 0;
    const importe = optionalDecimal(r, 'Importe') ?? 0;
    const same = out.find((o) => o.impuesto === impuesto && o.tasa === tasa);
    if (same) {
      same.base = total(same.base + base);
      same.importe = total(same.importe + importe);
    } else out.push(tasa === undefined ? { impuesto, base, importe } : { impuesto, tasa, base, importe });
  }
  return out;
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
  // Rates and their summed weights in order of appearance: a document has one or two rates.
  const rates: number[] = [];
  const weights: number[] = [];
  for (const t of traslados) {
    if (t.attrs.Impuesto !== IVA || t.attrs.TipoFactor !== 'Tasa') continue;
    const rate = optionalDecimal(t, 'TasaOCuota');
    if (rate === undefined) continue;
    // IVA is charged at 0, 8 or 16 % (withheld at most 16 %): a rate over 100 % is no CFDI's.
    if (rate > 1) throw new CfdiRejection(`TasaOCuota de IVA fuera de rango: ${rate}`);
    const weight = optionalDecimal(t, 'Base') ?? optionalDecimal(t, 'Importe') ?? 0;
    const known = rates.indexOf(rate);
    if (known < 0) {
      rates.push(rate);
      weights.push(weight);
    } else weights[known]! += weight;
  }
  let best = -1;
  for (let i = 0; i < rates.length; i++) if (best < 0 || weights[i]! > weights[best]!) best = i;
  return best < 0 ? undefined : Number((rates[best]! * 100).toFixed(4));
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

// Spelled out rather than built per line: a computed name is a new string to hash at every read.
const TRASLADO_ATTRIBUTES = {
  '': {
    base: 'Base',
    importe: 'Importe',
    impuesto: 'Impuesto',
    tipoFactor: 'TipoFactor',
    tasaOCuota: 'TasaOCuota',
  },
  DR: {
    base: 'BaseDR',
    importe: 'ImporteDR',
    impuesto: 'ImpuestoDR',
    tipoFactor: 'TipoFactorDR',
    tasaOCuota: 'TasaOCuotaDR',
  },
} as const;

/**
 * Traslado (suffix '') or TrasladoDR ('DR') lines summed by kind. IVA at a rate other than 16, 8
 * or 0 % is in no c_TasaOCuota for traslados and is left out here (it still counts in iva_amount).
 */
function taxesByRate(traslados: XmlElement[], suffix: '' | 'DR'): TaxesByRate {
  let base16 = 0;
  let iva16 = 0;
  let base8 = 0;
  let iva8 = 0;
  let base0 = 0;
  let baseExenta = 0;
  let ieps = 0;
  const names = TRASLADO_ATTRIBUTES[suffix];
  for (const t of traslados) {
    const base = optionalDecimal(t, names.base) ?? 0;
    const importe = optionalDecimal(t, names.importe) ?? 0;
    const impuesto = t.attrs[names.impuesto];
    if (impuesto === IEPS) ieps += importe;
    if (impuesto !== IVA) continue;
    if (t.attrs[names.tipoFactor] === 'Exento') {
      baseExenta += base;
      continue;
    }
    const rate = optionalDecimal(t, names.tasaOCuota);
    if (rate === undefined) continue;
    if (sameRate(rate, 0.16)) {
      base16 += base;
      iva16 += importe;
    } else if (sameRate(rate, 0.08)) {
      base8 += base;
      iva8 += importe;
    } else if (rate === 0) base0 += base;
  }
  return {
    base16: total(base16),
    iva16: total(iva16),
    base8: total(base8),
    iva8: total(iva8),
    base0: total(base0),
    baseExenta: total(baseExenta),
    ieps: total(ieps),
  };
}

function total(sum: number): number {
  if (sum >= MAX_AMOUNT) throw new CfdiRejection(`suma de impuestos fuera de rango: ${sum}`);
  return round6(sum);
}
