import { type Dec, ZERO } from './decimal';
import { destinoIva, type IvaFacts, type MotivoNoAcreditable } from './iva-creditable';
import { MOTIVOS } from './iva-month';
import { CIEN, prorratear } from './proportion';

// Where the IVA of one paid document goes in the DIOT's creditable and non-creditable columns. The
// rules are the monthly report's (iva-creditable.ts, proportion.ts): only the columns are the DIOT's,
// so a month's creditable + non-creditable IVA here is the monthly report's acreditable_pagado +
// no_acreditable.

export interface IvaSplit {
  /** Creditable, from acts exclusively taxed. */
  exclusivas: Dec;
  /** Creditable after the proportion of LIVA 5-V (or 5-B). */
  proporcion: Dec;
  /** Not creditable: the part the proportion leaves out. */
  noProporcion: Dec;
  /** Not creditable: fails a requirement (LIVA 5-I, 5-II). */
  noRequisitos: Dec;
  /** Not creditable: used for exempt acts. */
  noExentas: Dec;
  /** Not creditable: used for acts not subject to IVA (Folio has no such tag: always zero). */
  noObjeto: Dec;
}

/** The split's columns. */
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

/** The month's proportion and whether the DIOT's "con proporción" columns apply. */
export interface DiotProporcion {
  /** Percentage, 2 decimals (proportion.ts). */
  valor: Dec;
  /** A fixed 5-B proportion, or a month with exempt or non-object income (valor < 100). */
  aplica: boolean;
}

export const diotProporcion = (valor: Dec, fija: boolean): DiotProporcion => ({
  valor,
  aplica: fija || valor < CIEN,
});

/**
 * One payment's IVA in the DIOT's columns: a reason of LIVA 5-I/5-II → "no cumple requisitos";
 * uso_iva gravado → exclusively taxed; exento → non-creditable for exempt acts; the rest is used for
 * both kinds of acts: prorated into "con proporción" and "proporción" when a proportion applies,
 * else exclusively taxed (no exempt acts in the month: 100 %).
 */
export function diotIvaSplit(
  iva: Dec,
  credit: IvaFacts,
  p: DiotProporcion,
): { split: IvaSplit; motivo: MotivoNoAcreditable | null } {
  const destino = destinoIva(credit);
  if (destino === 'gravado') return { split: ivaSplit({ exclusivas: iva }), motivo: null };
  if (destino === 'exento') return { split: ivaSplit({ noExentas: iva }), motivo: null };
  if (destino === 'proporcional') {
    if (!p.aplica) return { split: ivaSplit({ exclusivas: iva }), motivo: null };
    const credited = prorratear(iva, p.valor);
    return { split: ivaSplit({ proporcion: credited, noProporcion: iva - credited }), motivo: null };
  }
  return { split: ivaSplit({ noRequisitos: iva }), motivo: destino };
}

/** The advertencia of IVA sent to "no cumple requisitos", by reason (the monthly report's words). */
export const noRequisitosWarning = (motivo: MotivoNoAcreditable) =>
  `IVA no acreditable en la columna "no cumple requisitos": ${MOTIVOS[motivo]}`;
