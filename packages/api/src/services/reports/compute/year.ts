import { type Dec, dec, max0, sum, toMoney, ZERO } from './decimal';
import { addNomina, type NominaTotals } from './nomina';
import { LIMITE_RESICO, type ResicoAnual, resicoAnual } from './resico-annual';
import type { ReportNomina, Side } from './rows';

// What a month's report carries over from the earlier months of its year (tax-rules §4, §5): the
// IVA balances a favor not yet absorbed (LIVA 6), the year-to-date RESICO income against the
// 3,500,000.00 limit (LISR 113-E), and what the profile stated for the year (LIVA 5-B, payments made).

export interface ReportSettings {
  /** LIVA 5-B proportion fixed for the year (%), or null. */
  proporcion5b: Dec | null;
  /** ISR actually paid per month (1–12), overriding the computed isr_a_pagar in 113-F. */
  pagosProvisionales: Map<number, Dec>;
}

export const NO_SETTINGS: ReportSettings = { proporcion5b: null, pagosProvisionales: new Map() };

export function settingsOf(stored: { proporcion5b: string | null; pagosProvisionales: Map<number, string> }) {
  return {
    proporcion5b: stored.proporcion5b === null ? null : dec(stored.proporcion5b),
    pagosProvisionales: new Map([...stored.pagosProvisionales].map(([mes, v]) => [mes, dec(v)])),
  };
}

export interface YearToDate {
  /** RESICO income collected in the year before this month, plus salaries received (113-E). */
  ingresosResico: Dec;
  /** Σ earlier a_favor not absorbed by a later a_cargo (LIVA 6): informative. */
  saldosAFavor: Dec;
  /** The month the profile passed the limit (YYYY-MM): later months carry no RESICO computation. */
  salioDeResico: string | null;
}

export const START_OF_YEAR: YearToDate = { ingresosResico: ZERO, saldosAFavor: ZERO, salioDeResico: null };

/** The state after a month with this IVA saldo and this RESICO income (base collected + salaries). */
export function nextMonth(ytd: YearToDate, key: string, ivaSaldo: Dec, ingresosResico: Dec): YearToDate {
  const acumulado = ytd.ingresosResico + ingresosResico;
  return {
    ingresosResico: acumulado,
    // A month a favor adds to the balance; a month a cargo absorbs what it can of it.
    saldosAFavor: ivaSaldo < ZERO ? ytd.saldosAFavor - ivaSaldo : max0(ytd.saldosAFavor - ivaSaldo),
    salioDeResico: ytd.salioDeResico ?? (acumulado > LIMITE_RESICO ? key : null),
  };
}

export const limitWarning = (acumulado: Dec) =>
  `ingresos del año ${toMoney(acumulado).toLocaleString('en-US', { minimumFractionDigits: 2 })} por encima de 3,500,000.00 ` +
  '(LISR art. 113-E, con salarios e intereses): desde el mes siguiente el perfil tributa en el régimen 612 y los meses siguientes no llevan cálculo RESICO';

export const leftWarning = (month: string) =>
  `el perfil dejó el RESICO en ${month} (ingresos del año por encima de 3,500,000.00, LISR art. 113-E): sin cálculo RESICO`;

/** The month's nómina on each side: issued (the profile is the employer) and received (its salary). */
export function nominaOf(rows: ReportNomina[] | undefined, key: string): Record<Side, NominaTotals | null> {
  const of = (side: Side) => {
    const list = (rows ?? []).filter((n) => n.month === key && n.side === side);
    if (list.length === 0) return null;
    return addNomina(
      list.map((n) => ({
        documentos: n.documentos,
        percepcionesGravadas: dec(n.percepcionesGravadas),
        percepcionesExentas: dec(n.percepcionesExentas),
        deducciones: dec(n.deducciones),
        otrosPagos: dec(n.otrosPagos),
        subsidioCausado: dec(n.subsidioCausado),
        isrRetenido: dec(n.isrRetenido),
      })),
    );
  };
  // Nómina is the other way round (classify.ts): the employer books it as an expense.
  return { expense: of('expense'), income: of('income') };
}

/** LISR 113-F over the year's months, or null when the profile left RESICO during the year. */
export function resicoDelAño(
  months: Array<{ resico: { ingresosCobrados: Dec; isrRetenido: Dec; isrAPagar: Dec } | null }>,
  settings: ReportSettings,
  salioDeResico: string | null,
): ResicoAnual | null {
  if (salioDeResico) return null;
  return resicoAnual({
    ingresosCobrados: sum(months.map((m) => m.resico?.ingresosCobrados ?? ZERO)),
    pagosProvisionales: months.map(
      (m, i) => settings.pagosProvisionales.get(i + 1) ?? m.resico?.isrAPagar ?? ZERO,
    ),
    isrRetenido: sum(months.map((m) => m.resico?.isrRetenido ?? ZERO)),
  });
}

export function shapeResicoAnual(r: ResicoAnual) {
  return {
    ingresos_cobrados: toMoney(r.ingresosCobrados),
    tasa: toMoney(r.tasa),
    isr_causado: toMoney(r.isrCausado),
    pagos_provisionales: toMoney(r.pagosProvisionales),
    isr_retenido: toMoney(r.isrRetenido),
    isr_a_cargo: toMoney(r.isrACargo),
    isr_a_favor: toMoney(r.isrAFavor),
  };
}
