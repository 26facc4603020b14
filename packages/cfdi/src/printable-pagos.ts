// What a payment complement's printed representation shows beyond the typed Pago (tax-rules §7):
// each related document's ObjetoImpDR and its taxes line by line (ImpuestosDR), each payment's
// ImpuestosP, and the complement's Totales, as written. Pagos 2.0 only: 1.0 has none of them.

import { NS } from './namespaces';
import type { PrintedTax } from './printed-tax';
import { child, children, grandchildren, optional, optionalDecimal } from './xml-read';
import type { XmlElement } from './xml-tree';

export interface PrintedTaxes {
  traslados: PrintedTax[];
  retenciones: PrintedTax[];
}

export interface PrintedDoctoTaxes extends PrintedTaxes {
  objetoImpDR?: string;
}

export interface PrintedPagoTaxes {
  /** ImpuestosP: the payment's taxes, in MonedaP. */
  impuestosP: PrintedTaxes;
  /** Per DoctoRelacionado, in the order of the Pago's doctos. */
  doctos: PrintedDoctoTaxes[];
}

/** pago20:Totales attributes (in MXN), as named in the complement. */
export const PAGOS_TOTALES = [
  'MontoTotalPagos',
  'TotalTrasladosBaseIVA16',
  'TotalTrasladosImpuestoIVA16',
  'TotalTrasladosBaseIVA8',
  'TotalTrasladosImpuestoIVA8',
  'TotalTrasladosBaseIVA0',
  'TotalTrasladosImpuestoIVA0',
  'TotalTrasladosBaseIVAExento',
  'TotalRetencionesIVA',
  'TotalRetencionesISR',
  'TotalRetencionesIEPS',
] as const;
export type PagosTotal = (typeof PAGOS_TOTALES)[number];

export interface PrintedPagos {
  totales: Partial<Record<PagosTotal, number>>;
  /** In the order of `cfdi.pagos` (Pagos 2.0 first, as readPagos reads them). */
  pagos: PrintedPagoTaxes[];
}

/** The Pagos 2.0 detail of a REP, or undefined when it has no Pagos 2.0 complement. */
export function readPrintedPagos(complementos: XmlElement[]): PrintedPagos | undefined {
  const ns = NS.pagos20;
  const blocks = complementos.flatMap((c) => children(c, ns, 'Pagos'));
  if (!blocks.length) return undefined;
  const totales: PrintedPagos['totales'] = {};
  for (const block of blocks) {
    const t = child(block, ns, 'Totales');
    for (const name of PAGOS_TOTALES) {
      const value = t && optionalDecimal(t, name);
      if (value !== undefined) totales[name] = (totales[name] ?? 0) + value;
    }
  }
  const pagos = blocks.flatMap((b) =>
    children(b, ns, 'Pago').map((pago) => ({
      impuestosP: taxesOf(child(pago, ns, 'ImpuestosP'), 'P'),
      doctos: children(pago, ns, 'DoctoRelacionado').map((d) => ({
        ...(d.attrs.ObjetoImpDR && { objetoImpDR: d.attrs.ObjetoImpDR }),
        ...taxesOf(child(d, ns, 'ImpuestosDR'), 'DR'),
      })),
    })),
  );
  return { totales, pagos };
}

/** TrasladosX/TrasladoX and RetencionesX/RetencionX with every attribute suffixed X (P or DR). */
function taxesOf(impuestos: XmlElement | undefined, x: 'P' | 'DR'): PrintedTaxes {
  if (!impuestos) return { traslados: [], retenciones: [] };
  const ns = NS.pagos20;
  const read = (t: XmlElement): PrintedTax => {
    const tax: PrintedTax = { impuesto: optional(t, `Impuesto${x}`) ?? '' };
    const tipoFactor = optional(t, `TipoFactor${x}`);
    if (tipoFactor !== undefined) tax.tipoFactor = tipoFactor;
    for (const [key, attr] of [
      ['tasaOCuota', `TasaOCuota${x}`],
      ['base', `Base${x}`],
      ['importe', `Importe${x}`],
    ] as const) {
      const value = optionalDecimal(t, attr);
      if (value !== undefined) tax[key] = value;
    }
    return tax;
  };
  return {
    traslados: grandchildren(impuestos, ns, `Traslados${x}`, `Traslado${x}`).map(read),
    retenciones: grandchildren(impuestos, ns, `Retenciones${x}`, `Retencion${x}`).map(read),
  };
}
