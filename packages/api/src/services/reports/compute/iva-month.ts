import { type Dec, toMoney, ZERO } from './decimal';
import type { CashMove } from './doc-taxes';
import { addIva, CFDI_SIN_PAGO, emptySplit, type IvaFacts, type MotivoNoAcreditable } from './iva-creditable';
import { type ActosCobrados, acreditable, CIEN, proporcionDelMes } from './proportion';

// A month's IVA by tax-rules §4: the totals by rate the return asks for, the proportion, and the
// creditable part of the IVA paid, with an advertencia for every peso left out and why.

export interface TasaFlujo {
  base: Dec;
  iva: Dec;
}

/** flujo.cobrado.por_tasa / flujo.pagado.por_tasa. */
export interface PorTasaFlujo {
  tasa16: TasaFlujo;
  tasa8: TasaFlujo;
  tasa0: TasaFlujo;
  exento: TasaFlujo;
  noObjeto: TasaFlujo;
}

export interface IvaMonth {
  cobradoPorTasa: PorTasaFlujo;
  pagadoPorTasa: PorTasaFlujo;
  /** Percentage, 2 decimals. */
  proporcion: Dec;
  acreditablePagado: Dec;
  noAcreditable: Dec;
}

const zero = (): TasaFlujo => ({ base: ZERO, iva: ZERO });
const emptyPorTasa = (): PorTasaFlujo => ({
  tasa16: zero(),
  tasa8: zero(),
  tasa0: zero(),
  exento: zero(),
  noObjeto: zero(),
});

function porTasaOf(moves: CashMove[]): PorTasaFlujo {
  const p = emptyPorTasa();
  for (const m of moves) {
    p.tasa16.base += m.porTasa.base16;
    p.tasa16.iva += m.porTasa.iva16;
    p.tasa8.base += m.porTasa.base8;
    p.tasa8.iva += m.porTasa.iva8;
    p.tasa0.base += m.porTasa.base0;
    p.exento.base += m.porTasa.baseExenta;
    p.noObjeto.base += m.actos?.noObjeto ?? ZERO;
  }
  return p;
}

/** Income collected by kind for LIVA 5-V, without the interest of LIVA 5-C on either side. */
function actosCobrados(income: CashMove[], porTasa: PorTasaFlujo): ActosCobrados {
  let gravado = ZERO;
  let exento = ZERO;
  let noObjeto = ZERO;
  for (const m of income) {
    gravado += m.actos?.interesGravado ?? ZERO;
    exento += m.actos?.interesExento ?? ZERO;
    noObjeto += m.actos?.interesNoObjeto ?? ZERO;
  }
  return {
    gravados: porTasa.tasa16.base + porTasa.tasa8.base + porTasa.tasa0.base - gravado,
    exentos: porTasa.exento.base - exento,
    noObjeto: porTasa.noObjeto.base - noObjeto,
  };
}

/** What decides an expense movement's credit; a supplier's credit note has no payment to judge. */
export const creditOf = (m: CashMove): IvaFacts => m.credit ?? CFDI_SIN_PAGO;

/** The month's proportion (%): the year's fixed one of LIVA 5-B, else the month's own (LIVA 5-V). */
export function proporcionOf(income: CashMove[], proporcion5b: Dec | null): Dec {
  return proporcion5b ?? proporcionDelMes(actosCobrados(income, porTasaOf(income)));
}

export const MOTIVOS: Record<MotivoNoAcreditable, string> = {
  sin_cfdi:
    'sin CFDI (LIVA art. 5-II): registre su uuid_cfdi, su pedimento o si es un servicio digital extranjero (LIVA art. 18-D)',
  efectivo: 'pagado en efectivo en una operación de más de 2,000.00 (LIVA art. 5-I, LISR art. 27-III)',
  combustible_efectivo: 'combustible pagado en efectivo (LIVA art. 5-I, LISR art. 27-III)',
};

const money = (d: Dec) => toMoney(d).toLocaleString('en-US', { minimumFractionDigits: 2 });
const percent = (d: Dec) => toMoney(d).toFixed(2);

/**
 * The month's IVA from its cash movements. `proporcion5b`: the year's fixed proportion (LIVA 5-B),
 * else the month's own (LIVA 5-V).
 */
export function ivaMonth(cash: CashMove[], proporcion5b: Dec | null, advertencias: string[]): IvaMonth {
  const income = cash.filter((m) => m.side === 'income');
  const expense = cash.filter((m) => m.side === 'expense');
  const cobradoPorTasa = porTasaOf(income);
  const split = emptySplit();
  for (const m of expense) {
    const before = { ...split.noAcreditable };
    addIva(split, m.iva, creditOf(m));
    for (const motivo of Object.keys(MOTIVOS) as MotivoNoAcreditable[]) {
      const added = split.noAcreditable[motivo] - before[motivo];
      if (added > ZERO) {
        advertencias.push(`${m.credit?.label}: IVA de ${money(added)} no acreditable, ${MOTIVOS[motivo]}`);
      }
    }
  }
  const proporcion = proporcionOf(income, proporcion5b);
  if (proporcion5b !== null) {
    advertencias.push(
      `IVA acreditable con la proporción fija del año, ${percent(proporcion)} % (LIVA art. 5-B)`,
    );
  } else if (proporcion < CIEN && split.proporcional !== ZERO) {
    advertencias.push(
      `proporción de IVA acreditable ${percent(proporcion)} % (LIVA arts. 5-V y 4-A: ingresos exentos o no objeto cobrados en el mes, sin intereses del art. 5-C); ` +
        'es una estimación: se aplica a todo gasto sin uso_iva, y por ley sólo corresponde a los usados para ambos tipos de actos',
    );
  }
  const { acreditablePagado, noAcreditable } = acreditable(split, proporcion);
  return {
    cobradoPorTasa,
    pagadoPorTasa: porTasaOf(expense),
    proporcion,
    acreditablePagado,
    noAcreditable,
  };
}

export function shapePorTasa(p: PorTasaFlujo) {
  const t = (x: TasaFlujo) => ({ base: toMoney(x.base), iva: toMoney(x.iva) });
  return {
    tasa_16: t(p.tasa16),
    tasa_8: t(p.tasa8),
    tasa_0: t(p.tasa0),
    exento: t(p.exento),
    no_objeto: t(p.noObjeto),
  };
}

export const addPorTasa = (list: PorTasaFlujo[]): PorTasaFlujo => {
  const total = emptyPorTasa();
  for (const p of list) {
    for (const k of Object.keys(total) as (keyof PorTasaFlujo)[]) {
      total[k].base += p[k].base;
      total[k].iva += p[k].iva;
    }
  }
  return total;
};
