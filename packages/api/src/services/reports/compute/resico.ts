import { type Dec, dec, max0, mul, ratio } from './decimal';

/**
 * LISR art. 113-E, monthly table for personas físicas in the Régimen Simplificado de Confianza:
 * the rate applies to the whole month's collected income (without IVA) up to each limit.
 * Rates are percentages (1.5 means 1.5 %).
 */
export const RESICO_TABLA: ReadonlyArray<{ hasta: string; tasa: string }> = [
  { hasta: '25000.00', tasa: '1.00' },
  { hasta: '50000.00', tasa: '1.10' },
  { hasta: '83333.33', tasa: '1.50' },
  { hasta: '208333.33', tasa: '2.00' },
  { hasta: '3500000.00', tasa: '2.50' },
];

export const REGIMEN_RESICO = '626';

/**
 * The rate for a month's income, decided on the income as shown (in cents): the limits are written
 * in cents. Above the last limit the regime no longer applies; the last rate is kept and the report
 * warns.
 */
export function resicoTasa(ingresosEnCentavos: Dec): { tasa: Dec; excedido: boolean } {
  for (const row of RESICO_TABLA) {
    if (ingresosEnCentavos <= dec(row.hasta)) return { tasa: dec(row.tasa), excedido: false };
  }
  return { tasa: dec(RESICO_TABLA.at(-1)!.tasa), excedido: true };
}

export interface ResicoFigures {
  ingresosCobrados: Dec;
  tasa: Dec;
  isrCausado: Dec;
  isrRetenido: Dec;
  isrAPagar: Dec;
}

export function resicoOf(
  ingresosCobrados: Dec,
  ingresosEnCentavos: Dec,
  isrRetenido: Dec,
): ResicoFigures & { excedido: boolean } {
  const { tasa, excedido } = resicoTasa(ingresosEnCentavos);
  const isrCausado = ratio(mul(max0(ingresosCobrados), tasa), dec(1), dec(100));
  return {
    ingresosCobrados,
    tasa,
    isrCausado,
    isrRetenido,
    isrAPagar: max0(isrCausado - isrRetenido),
    excedido,
  };
}
