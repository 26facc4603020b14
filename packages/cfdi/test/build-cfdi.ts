// Small CFDI 4.0 documents for tests, built from strings so each test shows what it varies.

import type { TaxesByRate } from '../src';

export const TFD_NS = 'http://www.sat.gob.mx/TimbreFiscalDigital';

export interface CfdiOptions {
  tipo?: string;
  /** null omits the attribute. */
  metodoPago?: string | null;
  fecha?: string;
  moneda?: string;
  subTotal?: string;
  descuento?: string;
  total?: string;
  emisor?: { rfc?: string; regimen?: string };
  receptor?: { rfc?: string; regimen?: string | null };
  /** Replaces the default single 16 % concept + comprobante-level Impuestos. */
  body?: string;
  /** Extra nodes inside cfdi:Complemento, before the timbre. */
  complementos?: string;
  /** null: no TimbreFiscalDigital at all. */
  uuid?: string | null;
  addenda?: string;
}

const DEFAULT_BODY = `
  <cfdi:Conceptos>
    <cfdi:Concepto ClaveProdServ="80111600" Cantidad="1" ClaveUnidad="E48" Descripcion="Servicio" ValorUnitario="1000.00" Importe="1000.00" ObjetoImp="02">
      <cfdi:Impuestos><cfdi:Traslados><cfdi:Traslado Base="1000.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="160.00"/></cfdi:Traslados></cfdi:Impuestos>
    </cfdi:Concepto>
  </cfdi:Conceptos>
  <cfdi:Impuestos TotalImpuestosTrasladados="160.00">
    <cfdi:Traslados><cfdi:Traslado Base="1000.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="160.00"/></cfdi:Traslados>
  </cfdi:Impuestos>`;

export const EMISOR_RFC = 'EKU9003173C9';
export const RECEPTOR_RFC = 'COSC8001137NA';
export const DEFAULT_UUID = 'A1B2C3D4-0000-4000-8000-00000000000A';

export function cfdi40(o: CfdiOptions = {}): string {
  const metodo = o.metodoPago === null ? '' : ` MetodoPago="${o.metodoPago ?? 'PUE'}"`;
  const descuento = o.descuento ? ` Descuento="${o.descuento}"` : '';
  const receptorRegimen =
    o.receptor?.regimen === null ? '' : ` RegimenFiscalReceptor="${o.receptor?.regimen ?? '612'}"`;
  const timbre =
    o.uuid === null
      ? ''
      : `<tfd:TimbreFiscalDigital xmlns:tfd="${TFD_NS}" Version="1.1" UUID="${o.uuid ?? DEFAULT_UUID}" FechaTimbrado="2024-05-02T10:00:00" RfcProvCertif="SAT970701NN3"/>`;
  const complemento =
    timbre || o.complementos ? `<cfdi:Complemento>${o.complementos ?? ''}${timbre}</cfdi:Complemento>` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0" Serie="F" Folio="7" Fecha="${o.fecha ?? '2024-05-01T12:00:00'}" SubTotal="${o.subTotal ?? '1000.00'}"${descuento} Moneda="${o.moneda ?? 'MXN'}" Total="${o.total ?? '1160.00'}" TipoDeComprobante="${o.tipo ?? 'I'}" Exportacion="01"${metodo} LugarExpedicion="52000">
  <cfdi:Emisor Rfc="${o.emisor?.rfc ?? EMISOR_RFC}" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="${o.emisor?.regimen ?? '601'}"/>
  <cfdi:Receptor Rfc="${o.receptor?.rfc ?? RECEPTOR_RFC}" Nombre="CARLOS CORTES SOTO" DomicilioFiscalReceptor="52000"${receptorRegimen} UsoCFDI="G03"/>${o.body ?? DEFAULT_BODY}
  ${complemento}${o.addenda ? `<cfdi:Addenda>${o.addenda}</cfdi:Addenda>` : ''}
</cfdi:Comprobante>`;
}

/** A Pagos 2.0 REP paying `doctos` (DoctoRelacionado attribute strings) in one Pago. */
export function rep20(
  doctos: string[],
  pago = 'FechaPago="2024-06-01T10:00:00" FormaDePagoP="03" MonedaP="MXN" TipoCambioP="1" Monto="100.00"',
  uuid = 'B1B2C3D4-0000-4000-8000-00000000000B',
): string {
  const pagos = `<pago20:Pagos xmlns:pago20="http://www.sat.gob.mx/Pagos20" Version="2.0"><pago20:Totales MontoTotalPagos="100.00"/>
    <pago20:Pago ${pago}>${doctos.map((d) => `<pago20:DoctoRelacionado ${d} ObjetoImpDR="01"/>`).join('')}</pago20:Pago></pago20:Pagos>`;
  return cfdi40({
    tipo: 'P',
    metodoPago: null,
    moneda: 'XXX',
    subTotal: '0',
    total: '0',
    body: '<cfdi:Conceptos><cfdi:Concepto ClaveProdServ="84111506" Cantidad="1" ClaveUnidad="ACT" Descripcion="Pago" ValorUnitario="0" Importe="0" ObjetoImp="01"/></cfdi:Conceptos>',
    complementos: pagos,
    uuid,
  });
}

/** Taxes by rate with only the given kinds non-zero. */
export const byRate = (some: Partial<TaxesByRate>): TaxesByRate => ({
  base16: 0,
  iva16: 0,
  base8: 0,
  iva8: 0,
  base0: 0,
  baseExenta: 0,
  ieps: 0,
  ...some,
});
