/**
 * A synthetic CFDI 4.0 de nómina (TipoDeComprobante N) with its Nómina 1.2 complement
 * (http://www.sat.gob.mx/nomina12): one concept "Pago de nómina" whose ValorUnitario is the
 * perceptions plus other payments and whose Descuento is the deductions, as Anexo 20's guide
 * for nómina asks; Total = SubTotal − Descuento.
 */

import { esc, fmt, type Party, parties, root, timbre } from './xml-parts';

export interface NominaSpec {
  uuid: string;
  /** The employer. */
  emisor: Party;
  /** The employee (RegimenFiscal 605). */
  receptor: Party;
  fecha: string;
  tipoNomina?: 'O' | 'E';
  fechaPago: string;
  fechaInicialPago: string;
  fechaFinalPago: string;
  numDiasPagados: number;
  registroPatronal: string;
  empleado: {
    curp: string;
    nss: string;
    numEmpleado: string;
    puesto?: string;
    departamento?: string;
    fechaInicioRelLaboral: string;
    antiguedad: string;
    periodicidadPago: string;
    salarioBaseCotApor: number;
    salarioDiarioIntegrado: number;
  };
  percepciones: Array<{ tipo: string; clave: string; concepto: string; gravado: number; exento: number }>;
  deducciones: Array<{ tipo: string; clave: string; concepto: string; importe: number }>;
  otrosPagos?: Array<{
    tipo: string;
    clave: string;
    concepto: string;
    importe: number;
    subsidioCausado?: number;
  }>;
}

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

export function nominaXml(s: NominaSpec): string {
  const gravado = sum(s.percepciones.map((p) => p.gravado));
  const exento = sum(s.percepciones.map((p) => p.exento));
  const percepciones = gravado + exento;
  const isr = sum(s.deducciones.filter((d) => d.tipo === '002').map((d) => d.importe));
  const deducciones = sum(s.deducciones.map((d) => d.importe));
  const otros = s.otrosPagos ?? [];
  const otrosPagos = sum(otros.map((o) => o.importe));
  const subTotal = percepciones + otrosPagos;
  const e = s.empleado;
  const attrs =
    `Serie="N" Folio="1" Fecha="${s.fecha}" SubTotal="${fmt(subTotal)}" Descuento="${fmt(deducciones)}" ` +
    `Moneda="MXN" Total="${fmt(subTotal - deducciones)}" TipoDeComprobante="N" MetodoPago="PUE"`;
  const line = (tag: string, tipo: string, x: { tipo: string; clave: string; concepto: string }) =>
    `<nomina12:${tag} ${tipo}="${x.tipo}" Clave="${esc(x.clave)}" Concepto="${esc(x.concepto)}"`;
  const complemento =
    `<nomina12:Nomina Version="1.2" TipoNomina="${s.tipoNomina ?? 'O'}" FechaPago="${s.fechaPago}" FechaInicialPago="${s.fechaInicialPago}" FechaFinalPago="${s.fechaFinalPago}" NumDiasPagados="${s.numDiasPagados.toFixed(3)}" TotalPercepciones="${fmt(percepciones)}" TotalDeducciones="${fmt(deducciones)}"${otros.length ? ` TotalOtrosPagos="${fmt(otrosPagos)}"` : ''}>` +
    `<nomina12:Emisor RegistroPatronal="${s.registroPatronal}"/>` +
    `<nomina12:Receptor Curp="${e.curp}" NumSeguridadSocial="${e.nss}" FechaInicioRelLaboral="${e.fechaInicioRelLaboral}" Antigüedad="${e.antiguedad}" TipoContrato="01" TipoRegimen="02" NumEmpleado="${esc(e.numEmpleado)}"${e.departamento ? ` Departamento="${esc(e.departamento)}"` : ''}${e.puesto ? ` Puesto="${esc(e.puesto)}"` : ''} RiesgoPuesto="1" PeriodicidadPago="${e.periodicidadPago}" SalarioBaseCotApor="${fmt(e.salarioBaseCotApor)}" SalarioDiarioIntegrado="${fmt(e.salarioDiarioIntegrado)}" ClaveEntFed="CMX"/>` +
    `<nomina12:Percepciones TotalSueldos="${fmt(percepciones)}" TotalGravado="${fmt(gravado)}" TotalExento="${fmt(exento)}">` +
    s.percepciones
      .map(
        (p) =>
          `${line('Percepcion', 'TipoPercepcion', p)} ImporteGravado="${fmt(p.gravado)}" ImporteExento="${fmt(p.exento)}"/>`,
      )
      .join('') +
    '</nomina12:Percepciones>' +
    (s.deducciones.length
      ? `<nomina12:Deducciones TotalOtrasDeducciones="${fmt(deducciones - isr)}"${isr ? ` TotalImpuestosRetenidos="${fmt(isr)}"` : ''}>` +
        s.deducciones
          .map((d) => `${line('Deduccion', 'TipoDeduccion', d)} Importe="${fmt(d.importe)}"/>`)
          .join('') +
        '</nomina12:Deducciones>'
      : '') +
    (otros.length
      ? `<nomina12:OtrosPagos>${otros
          .map(
            (o) =>
              `${line('OtroPago', 'TipoOtroPago', o)} Importe="${fmt(o.importe)}">` +
              (o.subsidioCausado === undefined
                ? ''
                : `<nomina12:SubsidioAlEmpleo SubsidioCausado="${fmt(o.subsidioCausado)}"/>`) +
              '</nomina12:OtroPago>',
          )
          .join('')}</nomina12:OtrosPagos>`
      : '') +
    '</nomina12:Nomina>';
  return (
    root(attrs, ' xmlns:nomina12="http://www.sat.gob.mx/nomina12"') +
    parties(s.emisor, s.receptor, 'CN01') +
    `<cfdi:Conceptos><cfdi:Concepto ClaveProdServ="84111505" Cantidad="1" ClaveUnidad="ACT" Descripcion="Pago de nómina" ValorUnitario="${fmt(subTotal)}" Importe="${fmt(subTotal)}" Descuento="${fmt(deducciones)}" ObjetoImp="01"/></cfdi:Conceptos>` +
    `<cfdi:Complemento>${complemento}${timbre(s.uuid, s.fecha)}</cfdi:Complemento></cfdi:Comprobante>`
  );
}
