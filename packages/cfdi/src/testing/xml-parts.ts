// The XML pieces every synthetic CFDI shares (root, parties, timbre), apart from generate.ts so that
// the nómina, payroll and printed-element builders it re-exports can use them without importing it.

export interface Party {
  rfc: string;
  nombre: string;
  regimen: string;
}

export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
export const fmt = (n: number) => n.toFixed(2);

export const timbre = (uuid: string, fecha: string) =>
  `<tfd:TimbreFiscalDigital Version="1.1" UUID="${uuid}" FechaTimbrado="${fecha}" RfcProvCertif="SAT970701NN3" SelloCFD="x" NoCertificadoSAT="30001000000400002495" SelloSAT="x"/>`;

export const root = (attrs: string, ns: string, exportacion = '01', lugarExpedicion = '06000') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital"${ns} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" Version="4.0" ${attrs} NoCertificado="30001000000400002495" Sello="x" Certificado="x" Exportacion="${exportacion}" LugarExpedicion="${lugarExpedicion}">`;

export const parties = (emisor: Party, receptor: Party, uso: string, receptorExtra = '') =>
  `<cfdi:Emisor Rfc="${esc(emisor.rfc)}" Nombre="${esc(emisor.nombre)}" RegimenFiscal="${emisor.regimen}"/>` +
  `<cfdi:Receptor Rfc="${esc(receptor.rfc)}" Nombre="${esc(receptor.nombre)}" DomicilioFiscalReceptor="06000"${receptorExtra} RegimenFiscalReceptor="${receptor.regimen}" UsoCFDI="${uso}"/>`;

/** CfdiRelacionados blocks: a type of relation and the UUIDs it points at. */
export type Relacionados = Array<{ tipoRelacion: string; uuids: string[] }>;
