// The Nómina 1.2 complement as the printed CFDI shows it (tax-rules §7): the payroll's kind, date
// and period, days paid, the employer's registro patronal, the employee (CURP, NSS, job, SDI), and
// every perception, deduction and other payment with the totals. Namespace
// http://www.sat.gob.mx/nomina12 (Anexo 20's complement "Nómina", version 1.2).

import { NS } from './namespaces';
import { child, children, grandchildren, optional, optionalDecimal, strings } from './xml-read';
import type { XmlElement } from './xml-tree';

export interface NominaLine {
  /** TipoPercepcion / TipoDeduccion / TipoOtroPago (SAT catalog code). */
  tipo: string;
  clave: string;
  concepto: string;
  /** Deducciones and otros pagos: Importe; percepciones: ImporteGravado + ImporteExento. */
  importe: number;
  importeGravado?: number;
  importeExento?: number;
}

export interface PrintedNomina {
  tipoNomina?: string;
  fechaPago?: string;
  fechaInicialPago?: string;
  fechaFinalPago?: string;
  numDiasPagados?: number;
  totalPercepciones?: number;
  totalDeducciones?: number;
  totalOtrosPagos?: number;
  registroPatronal?: string;
  empleado: {
    curp?: string;
    numSeguridadSocial?: string;
    numEmpleado?: string;
    puesto?: string;
    departamento?: string;
    fechaInicioRelLaboral?: string;
    antiguedad?: string;
    tipoContrato?: string;
    tipoRegimen?: string;
    periodicidadPago?: string;
    salarioBaseCotApor?: number;
    salarioDiarioIntegrado?: number;
    claveEntFed?: string;
  };
  percepciones: NominaLine[];
  /** Percepciones@TotalSueldos, TotalGravado, TotalExento. */
  totalSueldos?: number;
  totalGravado?: number;
  totalExento?: number;
  deducciones: NominaLine[];
  /** Deducciones@TotalImpuestosRetenidos, TotalOtrasDeducciones. */
  totalImpuestosRetenidos?: number;
  totalOtrasDeducciones?: number;
  otrosPagos: NominaLine[];
}

/** Every nomina12:Nomina among the complements (a CFDI may carry more than one). */
export function readNominas(complementos: XmlElement[]): PrintedNomina[] {
  return complementos.flatMap((c) => children(c, NS.nomina12, 'Nomina')).map(readNomina);
}

function readNomina(n: XmlElement): PrintedNomina {
  const ns = NS.nomina12;
  const emisor = child(n, ns, 'Emisor');
  const receptor = child(n, ns, 'Receptor');
  const percepciones = child(n, ns, 'Percepciones');
  const deducciones = child(n, ns, 'Deducciones');
  return {
    ...strings(n, {
      tipoNomina: 'TipoNomina',
      fechaPago: 'FechaPago',
      fechaInicialPago: 'FechaInicialPago',
      fechaFinalPago: 'FechaFinalPago',
    }),
    ...amounts(n, {
      numDiasPagados: 'NumDiasPagados',
      totalPercepciones: 'TotalPercepciones',
      totalDeducciones: 'TotalDeducciones',
      totalOtrosPagos: 'TotalOtrosPagos',
    }),
    ...(emisor && strings(emisor, { registroPatronal: 'RegistroPatronal' })),
    empleado: receptor
      ? {
          ...strings(receptor, {
            curp: 'Curp',
            numSeguridadSocial: 'NumSeguridadSocial',
            numEmpleado: 'NumEmpleado',
            puesto: 'Puesto',
            departamento: 'Departamento',
            fechaInicioRelLaboral: 'FechaInicioRelLaboral',
            antiguedad: 'Antigüedad',
            tipoContrato: 'TipoContrato',
            tipoRegimen: 'TipoRegimen',
            periodicidadPago: 'PeriodicidadPago',
            claveEntFed: 'ClaveEntFed',
          }),
          ...amounts(receptor, {
            salarioBaseCotApor: 'SalarioBaseCotApor',
            salarioDiarioIntegrado: 'SalarioDiarioIntegrado',
          }),
        }
      : {},
    percepciones: grandchildren(n, ns, 'Percepciones', 'Percepcion').map((p) => {
      const gravado = optionalDecimal(p, 'ImporteGravado') ?? 0;
      const exento = optionalDecimal(p, 'ImporteExento') ?? 0;
      return {
        ...line(p, 'TipoPercepcion'),
        importe: gravado + exento,
        importeGravado: gravado,
        importeExento: exento,
      };
    }),
    ...(percepciones &&
      amounts(percepciones, {
        totalSueldos: 'TotalSueldos',
        totalGravado: 'TotalGravado',
        totalExento: 'TotalExento',
      })),
    deducciones: grandchildren(n, ns, 'Deducciones', 'Deduccion').map((d) => ({
      ...line(d, 'TipoDeduccion'),
      importe: optionalDecimal(d, 'Importe') ?? 0,
    })),
    ...(deducciones &&
      amounts(deducciones, {
        totalImpuestosRetenidos: 'TotalImpuestosRetenidos',
        totalOtrasDeducciones: 'TotalOtrasDeducciones',
      })),
    otrosPagos: grandchildren(n, ns, 'OtrosPagos', 'OtroPago').map((o) => ({
      ...line(o, 'TipoOtroPago'),
      importe: optionalDecimal(o, 'Importe') ?? 0,
    })),
  };
}

const line = (el: XmlElement, tipo: string) => ({
  tipo: optional(el, tipo) ?? '',
  clave: optional(el, 'Clave') ?? '',
  concepto: optional(el, 'Concepto') ?? '',
});

/** Optional decimal attributes under new keys, omitted when absent. */
function amounts<K extends string>(el: XmlElement, map: Record<K, string>): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const key in map) {
    const value = optionalDecimal(el, map[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}
