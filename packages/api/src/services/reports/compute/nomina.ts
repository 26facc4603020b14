import { type Dec, sum, toMoney } from './decimal';

// Nómina 1.2 complement totals (by FechaPago): the employer's payroll of the month, and for a
// profile that receives nómina, its salaries and the ISR withheld from them.

export interface NominaTotals {
  documentos: number;
  percepcionesGravadas: Dec;
  percepcionesExentas: Dec;
  deducciones: Dec;
  otrosPagos: Dec;
  /** OtroPago 002: subsidio para el empleo causado. */
  subsidioCausado: Dec;
  /** Σ Deducciones@TotalImpuestosRetenidos. */
  isrRetenido: Dec;
}

export function addNomina(list: NominaTotals[]): NominaTotals {
  return {
    documentos: list.reduce((n, t) => n + t.documentos, 0),
    percepcionesGravadas: sum(list.map((t) => t.percepcionesGravadas)),
    percepcionesExentas: sum(list.map((t) => t.percepcionesExentas)),
    deducciones: sum(list.map((t) => t.deducciones)),
    otrosPagos: sum(list.map((t) => t.otrosPagos)),
    subsidioCausado: sum(list.map((t) => t.subsidioCausado)),
    isrRetenido: sum(list.map((t) => t.isrRetenido)),
  };
}

export function shapeNomina(t: NominaTotals) {
  return {
    documentos: t.documentos,
    percepciones_gravadas: toMoney(t.percepcionesGravadas),
    percepciones_exentas: toMoney(t.percepcionesExentas),
    deducciones: toMoney(t.deducciones),
    otros_pagos: toMoney(t.otrosPagos),
    subsidio_causado: toMoney(t.subsidioCausado),
    isr_retenido: toMoney(t.isrRetenido),
  };
}
