import {
  type NominaLine,
  PERIODICIDAD_PAGO,
  type PrintedCfdi,
  type PrintedNomina,
  TIPO_NOMINA,
  withName,
} from '@folio/cfdi';
import { money, quantity } from './cfdi-pdf-format';
import { type Column, drawFields, drawTitledTable, type Flow } from './pdf-layout';

/**
 * The Nómina 1.2 complement as printed (tax-rules §7): the payroll (kind, payment date, period,
 * days paid, registro patronal), the employee (name, CURP, NSS, job, SDI), and the perceptions,
 * deductions and other payments with their totals.
 */

const PERCEPCION_COLUMNS: Column[] = [
  { header: 'Tipo', width: 50 },
  { header: 'Clave', width: 60 },
  { header: 'Percepción', width: 250 },
  { header: 'Gravado', width: 90, align: 'right' },
  { header: 'Exento', width: 90, align: 'right' },
];

const IMPORTE_COLUMNS = (what: string): Column[] => [
  { header: 'Tipo', width: 50 },
  { header: 'Clave', width: 60 },
  { header: what, width: 340 },
  { header: 'Importe', width: 90, align: 'right' },
];

const importeRows = (lines: NominaLine[]) =>
  lines.map((l) => [l.tipo, l.clave, l.concepto, money(l.importe)]);

function drawNomina(flow: Flow, p: PrintedCfdi, n: PrintedNomina) {
  const e = n.empleado;
  drawFields(flow, 'Complemento de nómina 1.2', [
    ['Tipo de nómina', n.tipoNomina && withName(n.tipoNomina, TIPO_NOMINA)],
    ['Fecha de pago', n.fechaPago],
    ['Periodo', n.fechaInicialPago && `${n.fechaInicialPago} a ${n.fechaFinalPago ?? ''}`],
    ['Días pagados', n.numDiasPagados === undefined ? undefined : quantity(n.numDiasPagados)],
    ['Registro patronal', n.registroPatronal],
    [
      'Empleado',
      [p.cfdi.receptor.nombre, e.numEmpleado && `(núm. ${e.numEmpleado})`].filter(Boolean).join(' '),
    ],
    ['CURP', e.curp],
    ['NSS', e.numSeguridadSocial],
    ['Puesto', [e.puesto, e.departamento].filter(Boolean).join(' · ') || undefined],
    ['Inicio de la relación laboral', e.fechaInicioRelLaboral],
    ['Antigüedad', e.antiguedad],
    ['Periodicidad de pago', e.periodicidadPago && withName(e.periodicidadPago, PERIODICIDAD_PAGO)],
    ['Salario base de cotización', money(e.salarioBaseCotApor)],
    ['Salario diario integrado (SDI)', money(e.salarioDiarioIntegrado)],
    ['Tipo de contrato', e.tipoContrato],
    ['Tipo de régimen', e.tipoRegimen],
  ]);
  drawTitledTable(
    flow,
    'Percepciones',
    PERCEPCION_COLUMNS,
    n.percepciones.map((l) => [l.tipo, l.clave, l.concepto, money(l.importeGravado), money(l.importeExento)]),
  );
  drawTitledTable(flow, 'Deducciones', IMPORTE_COLUMNS('Deducción'), importeRows(n.deducciones));
  drawTitledTable(flow, 'Otros pagos', IMPORTE_COLUMNS('Otro pago'), importeRows(n.otrosPagos));
  drawFields(flow, 'Totales de la nómina', [
    ['Total percepciones', money(n.totalPercepciones)],
    ['Total deducciones', money(n.totalDeducciones)],
    ['Total otros pagos', money(n.totalOtrosPagos)],
    ['Total sueldos', money(n.totalSueldos)],
    ['Total gravado', money(n.totalGravado)],
    ['Total exento', money(n.totalExento)],
    ['Total impuestos retenidos', money(n.totalImpuestosRetenidos)],
    ['Total otras deducciones', money(n.totalOtrasDeducciones)],
  ]);
}

export function drawNominas(flow: Flow, p: PrintedCfdi) {
  for (const n of p.nominas) drawNomina(flow, p, n);
}
