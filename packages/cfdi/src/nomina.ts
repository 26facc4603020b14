// The totals of the Nómina 1.2 complement (docs/cfdi.md#facts): what the monthly report of an
// employer (or of an employee) needs, not the whole complement (the printed CFDI reads that).

import { NS } from './namespaces';
import type { NominaTotals } from './types';
import { child, childrenOfEach, grandchildren, optional, optionalDecimal } from './xml-read';
import type { XmlElement } from './xml-tree';

const FECHA = /^20\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** c_TipoOtroPago 002: subsidio para el empleo (efectivamente entregado al trabajador). */
const SUBSIDIO = '002';

/** The Nómina complements among the complements, summed; undefined when there are none. */
export function readNomina(complementos: XmlElement[], warnings: string[]): NominaTotals | undefined {
  const nominas = childrenOfEach(complementos, NS.nomina12, 'Nomina');
  if (nominas.length === 0) return undefined;
  const fechaPago = optional(nominas[0]!, 'FechaPago') ?? '';
  if (!FECHA.test(fechaPago)) warnings.push(`Nómina con FechaPago inválida: "${fechaPago.slice(0, 40)}"`);
  const totals: NominaTotals = {
    fechaPago: FECHA.test(fechaPago) ? fechaPago : '',
    tipoNomina: optional(nominas[0]!, 'TipoNomina') ?? '',
    totalPercepciones: 0,
    percepcionesGravadas: 0,
    percepcionesExentas: 0,
    totalDeducciones: 0,
    totalOtrosPagos: 0,
    subsidioCausado: 0,
    totalImpuestosRetenidos: 0,
  };
  const ns = NS.nomina12;
  for (const n of nominas) {
    totals.totalPercepciones += optionalDecimal(n, 'TotalPercepciones') ?? 0;
    totals.totalDeducciones += optionalDecimal(n, 'TotalDeducciones') ?? 0;
    totals.totalOtrosPagos += optionalDecimal(n, 'TotalOtrosPagos') ?? 0;
    const percepciones = child(n, ns, 'Percepciones');
    if (percepciones) {
      totals.percepcionesGravadas += optionalDecimal(percepciones, 'TotalGravado') ?? 0;
      totals.percepcionesExentas += optionalDecimal(percepciones, 'TotalExento') ?? 0;
    }
    const deducciones = child(n, ns, 'Deducciones');
    if (deducciones)
      totals.totalImpuestosRetenidos += optionalDecimal(deducciones, 'TotalImpuestosRetenidos') ?? 0;
    for (const otro of grandchildren(n, ns, 'OtrosPagos', 'OtroPago')) {
      if (otro.attrs.TipoOtroPago !== SUBSIDIO) continue;
      const subsidio = child(otro, ns, 'SubsidioAlEmpleo');
      totals.subsidioCausado += (subsidio && optionalDecimal(subsidio, 'SubsidioCausado')) ?? 0;
    }
  }
  for (const key of AMOUNTS) totals[key] = Math.round(totals[key] * 100) / 100;
  return totals;
}

const AMOUNTS = [
  'totalPercepciones',
  'percepcionesGravadas',
  'percepcionesExentas',
  'totalDeducciones',
  'totalOtrosPagos',
  'subsidioCausado',
  'totalImpuestosRetenidos',
] as const;
