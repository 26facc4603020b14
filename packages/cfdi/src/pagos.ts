// The payments complement of a REP (TipoDeComprobante P), Pagos 2.0 (CFDI 4.0) and Pagos 1.0
// (CFDI 3.3) read into one shape (docs/cfdi.md#reading-a-document).

import { readImpuestosDR } from './impuestos';
import { NS } from './namespaces';
import type { DoctoRelacionado, Pago } from './types';
import {
  children,
  decimal,
  fechaH,
  integer,
  optional,
  optionalDecimal,
  optionalInteger,
  required,
  uuid as uuidAttr,
} from './xml-read';
import type { XmlElement } from './xml-tree';

/** Pagos nodes found among the complements; undefined when there are none. */
export function readPagos(complementos: XmlElement[], warnings: string[]): Pago[] | undefined {
  const pagos20 = complementos.flatMap((c) => children(c, NS.pagos20, 'Pagos'));
  const pagos10 = complementos.flatMap((c) => children(c, NS.pagos10, 'Pagos'));
  if (pagos20.length + pagos10.length === 0) return undefined;
  return [
    ...pagos20.flatMap((p) =>
      children(p, NS.pagos20, 'Pago').map((pago) => readPago(pago, NS.pagos20, warnings)),
    ),
    ...pagos10.flatMap((p) =>
      children(p, NS.pagos10, 'Pago').map((pago) => readPago(pago, NS.pagos10, warnings)),
    ),
  ];
}

function readPago(pago: XmlElement, ns: string, warnings: string[]): Pago {
  const monedaP = required(pago, 'MonedaP');
  const tipoCambioP = optionalDecimal(pago, 'TipoCambioP');
  if (tipoCambioP === undefined && monedaP !== 'MXN') {
    warnings.push(`Pago en ${monedaP} sin TipoCambioP; se toma 1`);
  }
  const numOperacion = optional(pago, 'NumOperacion', 100);
  const doctos = children(pago, ns, 'DoctoRelacionado');
  const monto = decimal(pago, 'Monto');
  return {
    fechaPago: fechaH(pago, 'FechaPago'),
    formaPago: required(pago, 'FormaDePagoP'),
    monedaP,
    tipoCambioP: tipoCambioP ?? 1,
    monto,
    ...(numOperacion !== undefined && { numOperacion }),
    doctos: doctos.map((d) =>
      ns === NS.pagos20
        ? readDocto20(d, monedaP, warnings)
        : readDocto10(d, monedaP, doctos.length, monto, warnings),
    ),
  };
}

// In 2.0 the installment fields are required (XSD use="required"): a REP missing them is refused.
function readDocto20(d: XmlElement, monedaP: string, warnings: string[]): DoctoRelacionado {
  const impuestosDR = readImpuestosDR(d, NS.pagos20);
  return {
    ...identity(d, 'EquivalenciaDR', monedaP, warnings),
    numParcialidad: integer(d, 'NumParcialidad'),
    impSaldoAnt: decimal(d, 'ImpSaldoAnt'),
    impPagado: decimal(d, 'ImpPagado'),
    impSaldoInsoluto: decimal(d, 'ImpSaldoInsoluto'),
    ...(impuestosDR && { impuestosDR }),
  };
}

// 1.0 requires the installment fields only for PPD invoices. When ImpPagado is missing and the
// Pago pays one document in its own currency, the paid amount is the Pago's Monto (CfdiUtils
// CalculateDocumentAmountTrait); otherwise it stays unknown.
function readDocto10(
  d: XmlElement,
  monedaP: string,
  siblings: number,
  monto: number,
  warnings: string[],
): DoctoRelacionado {
  const docto = identity(d, 'TipoCambioDR', monedaP, warnings);
  const metodo = optional(d, 'MetodoDePagoDR');
  const numParcialidad = optionalInteger(d, 'NumParcialidad');
  const impSaldoAnt = optionalDecimal(d, 'ImpSaldoAnt');
  const impPagado =
    optionalDecimal(d, 'ImpPagado') ??
    (siblings === 1 && d.attrs.TipoCambioDR === undefined ? monto : undefined);
  const impSaldoInsoluto = optionalDecimal(d, 'ImpSaldoInsoluto');
  if (impPagado === undefined) warnings.push(`Pagos 1.0: DoctoRelacionado ${docto.uuid} sin ImpPagado`);
  return {
    ...docto,
    ...(metodo === 'PUE' || metodo === 'PPD' ? { metodoPagoDR: metodo } : {}),
    ...(numParcialidad !== undefined && { numParcialidad }),
    ...(impSaldoAnt !== undefined && { impSaldoAnt }),
    ...(impPagado !== undefined && { impPagado }),
    ...(impSaldoInsoluto !== undefined && { impSaldoInsoluto }),
  };
}

function identity(d: XmlElement, rateAttr: string, monedaP: string, warnings: string[]) {
  const uuid = uuidAttr(d, 'IdDocumento');
  const monedaDR = required(d, 'MonedaDR');
  const equivalenciaDR = optionalDecimal(d, rateAttr);
  // Same currency: the rate is 1 and may be omitted (sample cfdi40-pago20-liquida-ppd-rfc-ampersand.xml).
  if (equivalenciaDR === undefined && monedaDR !== monedaP) {
    warnings.push(`DoctoRelacionado ${uuid} en ${monedaDR} pagado en ${monedaP} sin ${rateAttr}; se toma 1`);
  }
  return { uuid, monedaDR, equivalenciaDR: equivalenciaDR ?? 1 };
}
