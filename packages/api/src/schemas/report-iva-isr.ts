import { z } from 'zod';

// The report fields of tax-rules §4 and §5 (docs/iva-isr.md#creditable-iva, #isr).

const Money = z.number();
const Tasa = z.object({ base: Money, iva: Money });

export const PorTasa = z
  .object({ tasa_16: Tasa, tasa_8: Tasa, tasa_0: Tasa, exento: Tasa, no_objeto: Tasa })
  .describe('Base and IVA by rate, as the monthly IVA return asks for them (no_objeto: ObjetoImp 01)')
  .meta({ id: 'ReportPorTasa' });

export const IvaAcreditable = {
  proporcion: Money.optional().describe(
    'Monthly only: the percentage (2 decimals) of prorated IVA credited (LIVA 5-V/4-A, or the LIVA 5-B fixed one); 100 without exempt or non-object income',
  ),
  no_acreditable: Money.describe(
    'IVA paid that is not credited: without CFDI (5-II), cash over 2,000.00 or fuel in cash (5-I), the proportion’s rest',
  ),
  saldos_a_favor_anteriores: Money.optional().describe(
    'Monthly only, informative: the year’s earlier a_favor not absorbed by a later a_cargo (LIVA 6)',
  ),
};

export const Nomina = z
  .object({
    documentos: z.number().int(),
    percepciones_gravadas: Money,
    percepciones_exentas: Money,
    deducciones: Money,
    otros_pagos: Money,
    subsidio_causado: Money.describe('OtroPago 002'),
    isr_retenido: Money.describe('Σ TotalImpuestosRetenidos'),
  })
  .meta({ id: 'ReportNomina' });

export const ResicoAnual = z
  .object({
    ingresos_cobrados: Money,
    tasa: z.number().describe('LISR art. 113-F annual rate, a percentage'),
    isr_causado: Money,
    pagos_provisionales: Money.describe(
      'Σ the monthly isr_a_pagar, or the amounts the user recorded as paid',
    ),
    isr_retenido: Money.describe('ISR withheld by personas morales (LISR 113-J)'),
    isr_a_cargo: Money,
    isr_a_favor: Money,
  })
  .meta({ id: 'ReportResicoAnual' });
