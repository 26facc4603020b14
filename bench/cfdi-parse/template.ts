// Synthetic stamped CFDI 4.0 ingresos of a chosen size. Real files are ~5 KB with one concept
// because the seal and the certificate (base64) dominate; size then grows with the concepts.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

// Deterministic filler with the length of a real seal (344) or certificate (~1,700).
function base64(length: number, seed: number): string {
  let s = '';
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    s += BASE64[x % 64];
  }
  return s;
}

const concepto = (i: number) =>
  `    <cfdi:Concepto ClaveProdServ="43211507" NoIdentificacion="SKU-${i}" Cantidad="2" ClaveUnidad="H87" Unidad="Pieza" Descripcion="Producto de inventario número ${i} con descripción larga" ValorUnitario="500.00" Importe="1000.00" ObjetoImp="02">
      <cfdi:Impuestos><cfdi:Traslados><cfdi:Traslado Base="1000.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="160.00"/></cfdi:Traslados></cfdi:Impuestos>
    </cfdi:Concepto>`;

export const PROFILE_RFC = 'EKU9003173C9';

export function cfdiDocument(conceptos: number): string {
  const subTotal = (1000 * conceptos).toFixed(2);
  const iva = (160 * conceptos).toFixed(2);
  const total = (1160 * conceptos).toFixed(2);
  return `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd" Version="4.0" Serie="A" Folio="1001" Fecha="2024-05-01T12:00:00" Sello="${base64(344, 1)}" FormaPago="03" NoCertificado="30001000000500003416" Certificado="${base64(1708, 2)}" SubTotal="${subTotal}" Moneda="MXN" Total="${total}" TipoDeComprobante="I" Exportacion="01" MetodoPago="PUE" LugarExpedicion="52000">
  <cfdi:Emisor Rfc="${PROFILE_RFC}" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>
  <cfdi:Receptor Rfc="COSC8001137NA" Nombre="CARLOS CORTES SOTO" DomicilioFiscalReceptor="52000" RegimenFiscalReceptor="612" UsoCFDI="G03"/>
  <cfdi:Conceptos>
${Array.from({ length: conceptos }, (_, i) => concepto(i + 1)).join('\n')}
  </cfdi:Conceptos>
  <cfdi:Impuestos TotalImpuestosTrasladados="${iva}">
    <cfdi:Traslados><cfdi:Traslado Base="${subTotal}" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="${iva}"/></cfdi:Traslados>
  </cfdi:Impuestos>
  <cfdi:Complemento>
    <tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="1.1" UUID="C2832671-DA6D-11EF-A83D-00155D012007" FechaTimbrado="2024-05-01T12:00:05" RfcProvCertif="SAT970701NN3" SelloCFD="${base64(344, 1)}" NoCertificadoSAT="00001000000708361114" SelloSAT="${base64(344, 3)}"/>
  </cfdi:Complemento>
</cfdi:Comprobante>
`;
}

/** The document (by concept count) whose UTF-8 size is closest to `bytes`. */
export function documentOfSize(bytes: number): { xml: Uint8Array; conceptos: number } {
  const encoder = new TextEncoder();
  let previous = { xml: encoder.encode(cfdiDocument(1)), conceptos: 1 };
  for (let conceptos = 2; previous.xml.byteLength < bytes; conceptos++) {
    const next = { xml: encoder.encode(cfdiDocument(conceptos)), conceptos };
    if (next.xml.byteLength - bytes > bytes - previous.xml.byteLength) break;
    previous = next;
  }
  return previous;
}
