import { type Dec, dec, ONE, ZERO } from './decimal';
import type { CreditFacts } from './iva-creditable';
import type { ActosExtra } from './proportion';
import type { DocParties, IvaPorTasa, ReportDoc, Side } from './rows';

// The shapes of the movements a report sums, and one document's own figures (taxes by rate, MXN
// rate, party): shared by movements.ts and notes.ts, which turn documents and credit notes into them.

export interface Party {
  rfc: string;
  nombre: string;
}

/** IVA by rate, plus the IVA withheld: the DIOT's columns. */
export interface PorTasa {
  base16: Dec;
  iva16: Dec;
  base8: Dec;
  iva8: Dec;
  base0: Dec;
  baseExenta: Dec;
}

export interface Taxes {
  base: Dec;
  iva: Dec;
  retIva: Dec;
  retIsr: Dec;
  total: Dec;
  porTasa: PorTasa;
}

/** Accrual: I documents (or a manual expense) add, E documents (credit notes) subtract. */
export interface AccrualMove {
  side: Side;
  party: Party;
  note: boolean;
  /** Documents counted (credit notes are not documents there: 0). */
  documentos: number;
  subtotal: Dec;
  descuento: Dec;
  iva: Dec;
  retIva: Dec;
  retIsr: Dec;
  total: Dec;
}

/** Cash: money collected or paid (negative for a credit note). `doc` and `documentos` count documents in the DIOT. */
export interface CashMove extends Taxes {
  side: Side;
  party: Party;
  doc: string;
  documentos: number;
  /** Expense side: what decides whether its IVA is creditable (LIVA 5, iva-creditable.ts). */
  credit?: CreditFacts;
  /** Non-object base and LIVA 5-C interest (CFDI only): the proportion and the totals by rate. */
  actos?: ActosExtra;
}

export interface Movements {
  /** By month key `YYYY-MM`. */
  accrual: Map<string, AccrualMove[]>;
  cash: Map<string, CashMove[]>;
  warnings: Map<string, string[]>;
}

/** The generic RFC that stands for anyone without one (a manual expense's unnamed supplier). */
export const RFC_GENERICO = 'XAXX010101000';
export const NOMBRE_SIN_RFC = 'Sin RFC';

export const monthOf = (date: string) => date.slice(0, 7);

export const partyOf = (doc: DocParties): Party =>
  doc.side === 'income'
    ? { rfc: doc.rfcReceptor, nombre: doc.nombreReceptor }
    : { rfc: doc.rfcEmisor, nombre: doc.nombreEmisor };

/** Pesos per unit of the document's currency; null when a foreign document carries no rate. */
export function mxnRate(moneda: string, tipoCambio: number | string | null): Dec | null {
  if (moneda === 'MXN' || moneda === 'XXX') return ONE;
  const rate = dec(tipoCambio);
  return rate > ZERO ? rate : null;
}

export const EMPTY_TASAS: PorTasa = {
  base16: ZERO,
  iva16: ZERO,
  base8: ZERO,
  iva8: ZERO,
  base0: ZERO,
  baseExenta: ZERO,
};

export function porTasaOf(
  stated: IvaPorTasa | null,
  base: Dec,
  iva: Dec,
  tasa: number | string | null,
): PorTasa {
  if (stated) {
    return {
      base16: dec(stated.base16),
      iva16: dec(stated.iva16),
      base8: dec(stated.base8),
      iva8: dec(stated.iva8),
      base0: dec(stated.base0),
      baseExenta: dec(stated.baseExenta),
    };
  }
  // Without the by-rate breakdown, the whole base goes to the document's one rate (0 % when no IVA).
  const percent = dec(tasa);
  if (percent >= dec(12)) return { ...EMPTY_TASAS, base16: base, iva16: iva };
  if (percent > ZERO) return { ...EMPTY_TASAS, base8: base, iva8: iva };
  return { ...EMPTY_TASAS, base0: base };
}

export function mapTasas(t: PorTasa, f: (v: Dec) => Dec): PorTasa {
  return {
    base16: f(t.base16),
    iva16: f(t.iva16),
    base8: f(t.base8),
    iva8: f(t.iva8),
    base0: f(t.base0),
    baseExenta: f(t.baseExenta),
  };
}

/** The document's own figures, in its currency. */
export function docTaxes(doc: ReportDoc): Taxes {
  const base = dec(doc.subtotal) - dec(doc.descuento);
  const iva = dec(doc.ivaTrasladado);
  return {
    base,
    iva,
    retIva: dec(doc.retencionIva),
    retIsr: dec(doc.retencionIsr),
    total: dec(doc.total),
    porTasa: porTasaOf(doc.ivaPorTasa, base, iva, doc.ivaTasa),
  };
}

export function scaleTaxes(t: Taxes, f: (v: Dec) => Dec): Taxes {
  return {
    base: f(t.base),
    iva: f(t.iva),
    retIva: f(t.retIva),
    retIsr: f(t.retIsr),
    total: f(t.total),
    porTasa: mapTasas(t.porTasa, f),
  };
}
