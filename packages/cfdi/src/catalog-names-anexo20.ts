// Descriptions of the further SAT catalog codes the printed CFDI names beside their code (tax-rules
// §7, Anexo 20's representación impresa): c_ObjetoImp, c_TipoRelacion, c_Exportacion,
// c_Periodicidad and c_Meses of InformacionGlobal, and Nómina 1.2's c_TipoNomina and
// c_PeriodicidadPago. Printed with `withName` (catalog-names.ts); a code missing here prints alone.

export const OBJETO_IMP: Readonly<Record<string, string>> = {
  '01': 'No objeto de impuesto',
  '02': 'Sí objeto de impuesto',
  '03': 'Sí objeto del impuesto y no obligado al desglose',
  '04': 'Sí objeto del impuesto y no causa impuesto',
  '05': 'Sí objeto del impuesto, IVA crédito PODEBI',
  '06': 'Sí objeto del IVA, no traslado IVA',
  '07': 'No traslado del IVA, sí desglose IEPS',
  '08': 'No traslado del IVA, no desglose IEPS',
};

export const TIPO_RELACION: Readonly<Record<string, string>> = {
  '01': 'Nota de crédito de los documentos relacionados',
  '02': 'Nota de débito de los documentos relacionados',
  '03': 'Devolución de mercancía sobre facturas o traslados previos',
  '04': 'Sustitución de los CFDI previos',
  '05': 'Traslados de mercancías facturados previamente',
  '06': 'Factura generada por los traslados previos',
  '07': 'CFDI por aplicación de anticipo',
};

export const EXPORTACION: Readonly<Record<string, string>> = {
  '01': 'No aplica',
  '02': 'Definitiva con clave A1',
  '03': 'Temporal',
  '04': 'Definitiva con clave distinta a A1 o cuando no existe enajenación en términos del CFF',
};

export const PERIODICIDAD: Readonly<Record<string, string>> = {
  '01': 'Diario',
  '02': 'Semanal',
  '03': 'Quincenal',
  '04': 'Mensual',
  '05': 'Bimestral',
};

export const MESES_GLOBAL: Readonly<Record<string, string>> = {
  '01': 'Enero',
  '02': 'Febrero',
  '03': 'Marzo',
  '04': 'Abril',
  '05': 'Mayo',
  '06': 'Junio',
  '07': 'Julio',
  '08': 'Agosto',
  '09': 'Septiembre',
  '10': 'Octubre',
  '11': 'Noviembre',
  '12': 'Diciembre',
  '13': 'Enero-Febrero',
  '14': 'Marzo-Abril',
  '15': 'Mayo-Junio',
  '16': 'Julio-Agosto',
  '17': 'Septiembre-Octubre',
  '18': 'Noviembre-Diciembre',
};

export const TIPO_NOMINA: Readonly<Record<string, string>> = { O: 'Ordinaria', E: 'Extraordinaria' };

export const PERIODICIDAD_PAGO: Readonly<Record<string, string>> = {
  '01': 'Diario',
  '02': 'Semanal',
  '03': 'Catorcenal',
  '04': 'Quincenal',
  '05': 'Mensual',
  '06': 'Bimestral',
  '07': 'Unidad obra',
  '08': 'Comisión',
  '09': 'Precio alzado',
  '10': 'Decenal',
  '99': 'Otra periodicidad',
};
