import { centsDec, type Dec, dec, max0, ratio, sum, ZERO } from './decimal';

// LISR art. 113-F: a RESICO persona física's annual ISR = the year's collected income × the single
// rate of the annual table, less the monthly provisional payments made and the ISR withheld by
// personas morales (113-J).

/** LISR 113-F, annual table: the rate applies to the whole year's income up to each limit. */
export const RESICO_TABLA_ANUAL: ReadonlyArray<{ hasta: string; tasa: string }> = [
  { hasta: '300000.00', tasa: '1.00' },
  { hasta: '600000.00', tasa: '1.10' },
  { hasta: '1000000.00', tasa: '1.50' },
  { hasta: '2500000.00', tasa: '2.00' },
  { hasta: '3500000.00', tasa: '2.50' },
];

/** LISR 113-E: above this year-to-date income the profile leaves RESICO. */
export const LIMITE_RESICO = dec('3500000.00');

export function resicoTasaAnual(ingresos: Dec): Dec {
  const cents = centsDec(ingresos);
  const row = RESICO_TABLA_ANUAL.find((r) => cents <= dec(r.hasta)) ?? RESICO_TABLA_ANUAL.at(-1)!;
  return dec(row.tasa);
}

export interface ResicoAnualInput {
  /** The year's collected income without IVA (Σ the months' RESICO base). */
  ingresosCobrados: Dec;
  /** Each month's provisional payment: the user's amount actually paid, else the month's isr_a_pagar. */
  pagosProvisionales: Dec[];
  /** ISR withheld by clients in the year (LISR 113-J). */
  isrRetenido: Dec;
}

export interface ResicoAnual {
  ingresosCobrados: Dec;
  tasa: Dec;
  isrCausado: Dec;
  pagosProvisionales: Dec;
  isrRetenido: Dec;
  isrACargo: Dec;
  isrAFavor: Dec;
}

export function resicoAnual(i: ResicoAnualInput): ResicoAnual {
  const tasa = resicoTasaAnual(i.ingresosCobrados);
  const isrCausado = ratio(max0(i.ingresosCobrados), tasa, dec(100));
  const pagos = sum(i.pagosProvisionales);
  const saldo = isrCausado - pagos - i.isrRetenido;
  return {
    ingresosCobrados: i.ingresosCobrados,
    tasa,
    isrCausado,
    pagosProvisionales: pagos,
    isrRetenido: i.isrRetenido,
    isrACargo: max0(saldo),
    isrAFavor: saldo < ZERO ? -saldo : ZERO,
  };
}
