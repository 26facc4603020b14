// Everything the representación impresa of a CFDI shows (plan-features §2, docs/cfdi.md#printed-
// representation): the typed Cfdi plus the attributes it leaves out (place of issue, units, the taxes
// of each concept, the seals and the timbre), read from the same parse of the stored original.

import { amountInWords } from './amount-in-words';
import { NS } from './namespaces';
import { parseCfdiWith, timbreOf } from './parse-cfdi';
import type { Cfdi } from './types';
import { cadenaOriginalTimbre, type Timbre, verificationUrl } from './verification';
import { child, decimal, grandchildren, optional, optionalDecimal, strings } from './xml-read';
import type { XmlElement } from './xml-tree';

export interface PrintedTax {
  /** c_Impuesto: 001 ISR, 002 IVA, 003 IEPS. */
  impuesto: string;
  tipoFactor?: string;
  /** As a fraction (0.160000), as written. */
  tasaOCuota?: number;
  base?: number;
  /** Absent for an Exento traslado. */
  importe?: number;
}

export interface PrintedConcepto {
  claveProdServ: string;
  noIdentificacion?: string;
  cantidad: number;
  claveUnidad?: string;
  unidad?: string;
  descripcion: string;
  valorUnitario: number;
  importe: number;
  descuento?: number;
  objetoImp?: string;
  traslados: PrintedTax[];
  retenciones: PrintedTax[];
}

export interface PrintedCfdi {
  cfdi: Cfdi;
  lugarExpedicion?: string;
  exportacion?: string;
  condicionesDePago?: string;
  /** The issuer's certificate number (Comprobante@NoCertificado). */
  noCertificado?: string;
  /** Sello digital del CFDI (Comprobante@Sello). */
  sello: string;
  conceptos: PrintedConcepto[];
  /** The comprobante-level taxes as declared (empty when the document declares none). */
  traslados: PrintedTax[];
  retenciones: PrintedTax[];
  timbre: Timbre;
  cadenaOriginalTimbre: string;
  verificationUrl: string;
  /** "MIL CIENTO SESENTA PESOS 00/100 M.N.". */
  totalEnLetra: string;
}

export type PrintableResult = { ok: true; doc: PrintedCfdi } | { ok: false; reason: string };

/** Reads a stored original for printing; a document the importer took always reads. */
export function parsePrintable(input: string | Uint8Array): PrintableResult {
  const parsed = parseCfdiWith(input, readPrintable);
  return parsed.ok ? { ok: true, doc: parsed.more } : parsed;
}

const text = (el: XmlElement | undefined, name: string) => (el && optional(el, name)) ?? '';

function readPrintable(root: XmlElement, cfdi: Cfdi): PrintedCfdi {
  const ns = cfdi.version === '4.0' ? NS.cfdi40 : NS.cfdi33;
  const tfd = timbreOf(root, ns);
  const timbre: Timbre = {
    version: text(tfd, 'Version') || '1.1',
    uuid: cfdi.uuid,
    fechaTimbrado: cfdi.fechaTimbrado,
    rfcProvCertif: text(tfd, 'RfcProvCertif'),
    ...(tfd?.attrs.Leyenda && { leyenda: text(tfd, 'Leyenda') }),
    selloCFD: text(tfd, 'SelloCFD'),
    noCertificadoSAT: text(tfd, 'NoCertificadoSAT'),
    selloSAT: text(tfd, 'SelloSAT'),
  };
  const sello = text(root, 'Sello');
  const total = text(root, 'Total') || String(cfdi.total);
  const global = child(root, ns, 'Impuestos');
  return {
    cfdi,
    ...strings(root, {
      lugarExpedicion: 'LugarExpedicion',
      exportacion: 'Exportacion',
      condicionesDePago: 'CondicionesDePago',
      noCertificado: 'NoCertificado',
    }),
    sello,
    conceptos: grandchildren(root, ns, 'Conceptos', 'Concepto').map((c) => readConcepto(c, ns)),
    traslados: global ? taxes(global, ns, 'Traslados', 'Traslado') : [],
    retenciones: global ? taxes(global, ns, 'Retenciones', 'Retencion') : [],
    timbre,
    cadenaOriginalTimbre: cadenaOriginalTimbre(timbre),
    verificationUrl: verificationUrl({
      uuid: cfdi.uuid,
      rfcEmisor: cfdi.emisor.rfc,
      rfcReceptor: cfdi.receptor.rfc,
      total,
      sello,
    }),
    totalEnLetra: amountInWords(total, cfdi.moneda),
  };
}

function readConcepto(c: XmlElement, ns: string): PrintedConcepto {
  const impuestos = child(c, ns, 'Impuestos');
  return {
    claveProdServ: text(c, 'ClaveProdServ'),
    ...strings(c, {
      noIdentificacion: 'NoIdentificacion',
      claveUnidad: 'ClaveUnidad',
      unidad: 'Unidad',
      objetoImp: 'ObjetoImp',
    }),
    cantidad: decimal(c, 'Cantidad'),
    descripcion: text(c, 'Descripcion'),
    valorUnitario: decimal(c, 'ValorUnitario'),
    importe: decimal(c, 'Importe'),
    ...defined('descuento', optionalDecimal(c, 'Descuento')),
    traslados: impuestos ? taxes(impuestos, ns, 'Traslados', 'Traslado') : [],
    retenciones: impuestos ? taxes(impuestos, ns, 'Retenciones', 'Retencion') : [],
  };
}

function taxes(impuestos: XmlElement, ns: string, group: string, name: string): PrintedTax[] {
  return grandchildren(impuestos, ns, group, name).map((t) => ({
    impuesto: text(t, 'Impuesto'),
    ...strings(t, { tipoFactor: 'TipoFactor' }),
    ...defined('tasaOCuota', optionalDecimal(t, 'TasaOCuota')),
    ...defined('base', optionalDecimal(t, 'Base')),
    ...defined('importe', optionalDecimal(t, 'Importe')),
  }));
}

const defined = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;
