import { type Dec, dec, ZERO } from './decimal';
import type { DiotDocFacts } from './diot-facts';
import type { CashMove } from './doc-taxes';

// Where the IVA of one paid document goes in the DIOT's creditable and non-creditable columns. The
// DIOT takes the split as a function, so the rules of what is creditable (tax-rules §4: cash,
// proportion, uso_iva) plug in whole; the default knows the two that need nothing more than a
// document's own facts.

export interface IvaSplit {
  /** Creditable, from acts exclusively taxed. */
  exclusivas: Dec;
  /** Creditable after the proportion of LIVA 5-V. */
  proporcion: Dec;
  /** Not creditable: the part the proportion leaves out. */
  noProporcion: Dec;
  /** Not creditable: fails a requirement (no CFDI; cash over 2,000.00). */
  noRequisitos: Dec;
  /** Not creditable: used for exempt acts. */
  noExentas: Dec;
  /** Not creditable: used for acts not subject to IVA. */
  noObjeto: Dec;
  /** Why some of it is not creditable (an advertencia). */
  motivo?: string;
}

export type SplitIva = (iva: Dec, move: CashMove, facts: DiotDocFacts | undefined) => IvaSplit;

/** The split's columns (all but `motivo`). */
export const IVA_SPLIT_COLUMNS = [
  'exclusivas',
  'proporcion',
  'noProporcion',
  'noRequisitos',
  'noExentas',
  'noObjeto',
] as const;

/** A split with the given columns, the rest zero. */
export const ivaSplit = (fields: Partial<IvaSplit>): IvaSplit => ({
  exclusivas: ZERO,
  proporcion: ZERO,
  noProporcion: ZERO,
  noRequisitos: ZERO,
  noExentas: ZERO,
  noObjeto: ZERO,
  ...fields,
});

/** LISR 27-III: payments over 2,000.00 by bank means only (LIVA 5-I follows the deduction). */
export const EFECTIVO_LIMITE = dec(2000);

const SIN_CFDI =
  'IVA de gastos capturados sin CFDI: no acreditable (LIVA 5-II), en la columna "no cumple requisitos"';
const EFECTIVO =
  'IVA de CFDI pagados en efectivo por más de 2,000.00: no acreditable (LIVA 5-I, LISR 27-III), ' +
  'en la columna "no cumple requisitos"';

/**
 * A manual expense has no CFDI (LIVA 5-II); a PUE CFDI paid in cash (FormaPago 01) over 2,000.00
 * fails LISR 27-III. Everything else is creditable from taxed acts; the proportion and uso_iva
 * come with the creditable-IVA rules.
 */
export const defaultIvaSplit: SplitIva = (iva, move, facts) => {
  if (facts?.sinCfdi) return ivaSplit({ noRequisitos: iva, motivo: SIN_CFDI });
  const total = move.total < ZERO ? -move.total : move.total;
  if (facts?.metodoPago === 'PUE' && facts.formaPago === '01' && total > EFECTIVO_LIMITE) {
    return ivaSplit({ noRequisitos: iva, motivo: EFECTIVO });
  }
  return ivaSplit({ exclusivas: iva });
};
