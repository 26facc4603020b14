import { centsDec, type Dec, dec, max0, ratio, ZERO } from './decimal';
import type { IvaPagadoSplit } from './iva-creditable';
import type { Amount } from './rows';

// LIVA arts. 5-V and 4-A: when a month has exempt or non-object income, the IVA of expenses used for
// both kinds of acts is credited in the proportion the taxed acts bear to all acts collected in the
// month (LIVA 5-C leaves interest and the like out of both sides). LIVA 5-B lets a profile fix the
// previous year's proportion for the year instead.

/** Income collected in the month (MXN, without IVA), already without the items of LIVA 5-C. */
export interface ActosCobrados {
  /** At 16, 8 and 0 %. */
  gravados: Dec;
  exentos: Dec;
  /** ObjetoImp 01. */
  noObjeto: Dec;
}

export const CIEN = dec(100);

/** A percentage shown and applied with 2 decimals (a factor to the ten-thousandth), half away from zero. */
const porcentaje2 = (num: Dec, den: Dec): Dec => centsDec(ratio(CIEN, num, den));

/**
 * The month's proportion as a percentage with 2 decimals: 100 when no exempt or non-object income
 * was collected (nothing to prorate), else taxed ÷ (taxed + exempt + non-object).
 */
export function proporcionDelMes(a: ActosCobrados): Dec {
  if (a.exentos <= ZERO && a.noObjeto <= ZERO) return CIEN;
  const total = a.gravados + a.exentos + a.noObjeto;
  if (total <= ZERO) return ZERO;
  return porcentaje2(max0(a.gravados), total);
}

/** The creditable part of IVA used for both kinds of acts: iva × proportion ÷ 100 (LIVA 5-V c). */
export const prorratear = (iva: Dec, proporcion: Dec): Dec => ratio(iva, proporcion, CIEN);

/** The creditable IVA and what is left out, given the split and the proportion (%, 2 decimals). */
export function acreditable(split: IvaPagadoSplit, proporcion: Dec) {
  const prorrateado = prorratear(split.proporcional, proporcion);
  const acreditablePagado = split.gravado + prorrateado;
  const porProporcion = split.proporcional - prorrateado + split.exento;
  const noAcreditable =
    porProporcion +
    split.noAcreditable.sin_cfdi +
    split.noAcreditable.efectivo +
    split.noAcreditable.combustible_efectivo;
  return { acreditablePagado, porProporcion, noAcreditable };
}

/** What a collected income movement adds to the proportion beyond its IVA by rate (from the CFDI's facts). */
export interface ActosExtra {
  /** Base of ObjetoImp 01 concepts. */
  noObjeto: Dec;
  /** Interest (LIVA 5-C) by kind, left out of both sides. */
  interesGravado: Dec;
  interesExento: Dec;
  interesNoObjeto: Dec;
}

/**
 * The document's facts scaled like its amounts (currency, share paid, the sign of a credit note). A
 * CFDI the user tagged as an act of LIVA 5-C is left out whole: its by-rate bases (already scaled)
 * count as its 5-C part.
 */
export function actosOf(
  doc: {
    baseNoObjeto: Amount;
    interesGravado: Amount;
    interesExento: Amount;
    interesNoObjeto: Amount;
    acto5c: boolean;
  },
  scale: (v: Dec) => Dec,
  porTasa: { base16: Dec; base8: Dec; base0: Dec; baseExenta: Dec },
): ActosExtra {
  const noObjeto = scale(dec(doc.baseNoObjeto));
  if (doc.acto5c) {
    return {
      noObjeto,
      interesGravado: porTasa.base16 + porTasa.base8 + porTasa.base0,
      interesExento: porTasa.baseExenta,
      interesNoObjeto: noObjeto,
    };
  }
  return {
    noObjeto,
    interesGravado: scale(dec(doc.interesGravado)),
    interesExento: scale(dec(doc.interesExento)),
    interesNoObjeto: scale(dec(doc.interesNoObjeto)),
  };
}
