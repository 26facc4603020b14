/**
 * A one-salary nómina receipt (nominaXml with a demo employee) for tests that care about its totals
 * only: perceptions gravadas/exentas, the ISR withheld, other deductions, the subsidio causado.
 */

import { nominaXml } from './nomina';
import type { Party } from './xml-parts';

export interface PayrollSpec {
  uuid: string;
  /** The employer. */
  emisor: Party;
  /** The employee (RegimenFiscal 605). */
  receptor: Party;
  fecha: string;
  /** Nomina@FechaPago, YYYY-MM-DD. */
  fechaPago: string;
  gravado: number;
  exento?: number;
  isr?: number;
  /** Other deductions (IMSS). */
  otras?: number;
  /** OtroPago 002 (subsidio para el empleo): paid and causado. */
  subsidio?: { pagado: number; causado: number };
}

export function payrollXml(s: PayrollSpec): string {
  return nominaXml({
    uuid: s.uuid,
    emisor: s.emisor,
    receptor: s.receptor,
    fecha: s.fecha,
    fechaPago: s.fechaPago,
    fechaInicialPago: s.fechaPago,
    fechaFinalPago: s.fechaPago,
    numDiasPagados: 15,
    registroPatronal: 'A0000000000',
    empleado: {
      curp: 'XAXX010101HDFXXX01',
      nss: '00000000000',
      numEmpleado: '1',
      fechaInicioRelLaboral: '2024-01-01',
      antiguedad: 'P52W',
      periodicidadPago: '04',
      salarioBaseCotApor: 300,
      salarioDiarioIntegrado: 300,
    },
    percepciones: [
      { tipo: '001', clave: '001', concepto: 'Sueldo', gravado: s.gravado, exento: s.exento ?? 0 },
    ],
    deducciones: [
      ...(s.isr ? [{ tipo: '002', clave: '002', concepto: 'ISR', importe: s.isr }] : []),
      ...(s.otras ? [{ tipo: '001', clave: '001', concepto: 'IMSS', importe: s.otras }] : []),
    ],
    ...(s.subsidio && {
      otrosPagos: [
        {
          tipo: '002',
          clave: '002',
          concepto: 'Subsidio para el empleo',
          importe: s.subsidio.pagado,
          subsidioCausado: s.subsidio.causado,
        },
      ],
    }),
  });
}
