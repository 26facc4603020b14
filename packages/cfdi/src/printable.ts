// Everything the representación impresa of a CFDI shows (plan-features §2, docs/cfdi.md#printed-
// representation): the typed Cfdi plus the attributes it leaves out (place of issue, units, the taxes
// of each concept, the seals and the timbre), read from the same parse of the stored original.

import { amountInWords } from './amount-in-words';
import { NS } from './namespaces';
import { parseCfdiWith, timbreOf } from './parse-cfdi';
import { type PrintedNomina, readNominas } from './printable-nomina';
import { type PrintedPagos, readPrintedPagos } from './printable-pagos';
import type { PrintedTax } from './printed-tax';
import { cadenaOriginalTimbre, type Timbre, verificationUrl } from './sat-qr';
import type { Cfdi } from './types';
import { child, children, decimal, grandchildren, optional, optionalDecimal, strings } from './xml-read';
import type { XmlElement } from './xml-tree';

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
  /** ACuentaTerceros: the third party on whose behalf the concept is billed. */
  aCuentaTerceros?: { rfc?: string; nombre?: string; regimenFiscal?: string; domicilioFiscal?: string };
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
  /** InformacionGlobal of a factura global (público en general). */
  informacionGlobal?: { periodicidad?: string; meses?: string; año?: string };
  /** A foreign receiver's country (c_Pais) and tax id. */
  residenciaFiscal?: string;
  numRegIdTrib?: string;
  /** A REP's Pagos 2.0 taxes and totals (printable-pagos.ts). */
  pagosDetalle?: PrintedPagos;
  /** Nómina 1.2 complements (printable-nomina.ts); empty for any other CFDI. */
  nominas: PrintedNomina[];
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
  const receptor = child(root, ns, 'Receptor');
  const informacionGlobal = child(root, ns, 'InformacionGlobal');
  const complementos = children(root, ns, 'Complemento');
  const pagosDetalle = readPrintedPagos(complementos);
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
    ...(informacionGlobal && {
      informacionGlobal: strings(informacionGlobal, {
        periodicidad: 'Periodicidad',
        meses: 'Meses',
        año: 'Año',
      }),
    }),
    ...(receptor &&
      strings(receptor, { residenciaFiscal: 'ResidenciaFiscal', numRegIdTrib: 'NumRegIdTrib' })),
    ...(pagosDetalle && { pagosDetalle }),
    nominas: readNominas(complementos),
  };
}

function readConcepto(c: XmlElement, ns: string): PrintedConcepto {
  const impuestos = child(c, ns, 'Impuestos');
  const terceros = child(c, ns, 'ACuentaTerceros');
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
    ...(terceros && {
      aCuentaTerceros: strings(terceros, {
        rfc: 'RfcACuentaTerceros',
        nombre: 'NombreACuentaTerceros',
        regimenFiscal: 'RegimenFiscalACuentaTerceros',
        domicilioFiscal: 'DomicilioFiscalACuentaTerceros',
      }),
    }),
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
