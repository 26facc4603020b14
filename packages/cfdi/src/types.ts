// The parsed CFDI. Amounts are numbers, RFCs and UUIDs upper-cased, dates kept as the literal
// strings of the XML (local Mexican time, no time zone). Field meaning: docs/cfdi.md, docs/contract.md#resources.

export type CfdiVersion = '4.0' | '3.3';
/** I ingreso, E egreso, T traslado, N nómina, P pago (REP). */
export type TipoDeComprobante = 'I' | 'E' | 'T' | 'N' | 'P';
export type MetodoPago = 'PUE' | 'PPD';

export interface Cfdi {
  version: CfdiVersion;
  /** TimbreFiscalDigital@UUID, upper-cased. */
  uuid: string;
  fechaTimbrado: string;
  /** Comprobante@Fecha as written, e.g. "2025-01-24T10:10:41". */
  fecha: string;
  /** Month 1-12 and year from the date text of `fecha`, never through Date/UTC. */
  mes: number;
  año: number;
  serie?: string;
  folio?: string;
  tipoDeComprobante: TipoDeComprobante;
  metodoPago?: MetodoPago;
  formaPago?: string;
  moneda: string;
  tipoCambio?: number;
  subTotal: number;
  descuento?: number;
  total: number;
  emisor: { rfc: string; nombre: string; regimenFiscal: string };
  /** 3.3 has no regimenFiscal / domicilioFiscal for the receptor. */
  receptor: {
    rfc: string;
    nombre: string;
    regimenFiscal?: string;
    domicilioFiscal?: string;
    usoCfdi?: string;
  };
  conceptos: Concepto[];
  impuestos: CfdiImpuestos;
  /** CfdiRelacionados blocks (credit notes, substitutions…), UUIDs upper-cased, in document order. */
  relacionados: Array<{ tipoRelacion: string; uuids: string[] }>;
  /** Comprobante@LugarExpedicion: the issuer's postal code. */
  lugarExpedicion?: string;
  /** Present when the CFDI carries Nómina 1.2 complements (docs/cfdi.md#facts). */
  nomina?: NominaTotals;
  /** Present for tipoDeComprobante P: Pagos 2.0 or 1.0, normalised to one shape. */
  pagos?: Pago[];
  /** Parse-level findings (docs/cfdi.md#document-warnings); never fatal. */
  warnings: string[];
}

export interface Concepto {
  claveProdServ: string;
  descripcion: string;
  cantidad: number;
  valorUnitario: number;
  importe: number;
  descuento?: number;
  /** ObjetoImp (CFDI 4.0 only): 01 no objeto, 02 sí objeto, 03 sí objeto no obligado a desglose, 04 sí objeto no causa, 05 sí objeto IVA crédito PODEBI. */
  objetoImp?: string;
  /** Σ the concept's transferred IVA (Impuesto 002) Importe. */
  ivaTrasladado: number;
  /** Whether the concept carries an IVA Traslado (how a 3.3 concept, without ObjetoImp, says it is object of tax). */
  trasladaIva: boolean;
}

/**
 * The totals of a CFDI's Nómina 1.2 complements (summed when it has several), as written; the
 * payment date is the first one's.
 */
export interface NominaTotals {
  /** Nomina@FechaPago (t_Fecha, YYYY-MM-DD). */
  fechaPago: string;
  /** O ordinaria, E extraordinaria. */
  tipoNomina: string;
  totalPercepciones: number;
  /** Percepciones@TotalGravado / TotalExento. */
  percepcionesGravadas: number;
  percepcionesExentas: number;
  totalDeducciones: number;
  totalOtrosPagos: number;
  /** Σ SubsidioAlEmpleo@SubsidioCausado of the OtroPago with TipoOtroPago 002. */
  subsidioCausado: number;
  /** Deducciones@TotalImpuestosRetenidos: the ISR withheld from the employee. */
  totalImpuestosRetenidos: number;
}

/** A withholding line of the concepts, summed per tax and rate (docs/cfdi.md#facts). */
export interface RetencionPorTasa {
  impuesto: 'ISR' | 'IVA';
  /** TasaOCuota as a fraction (0.1, 0.0125, 0.106667); absent when only the comprobante level states the withholding (no rate there). */
  tasa?: number;
  base: number;
  importe: number;
}
export interface CfdiImpuestos {
  /** Σ transferred IVA (Impuesto 002). */
  trasladosIva: number;
  /** Transferred IVA rate as a percentage (16, 8, 0) of the rate with the largest base; absent without IVA at Tasa. */
  ivaRate?: number;
  /** Σ withheld IVA (002) and ISR (001). */
  retencionIva: number;
  retencionIsr: number;
  /** Comprobante Impuestos@TotalImpuestosTrasladados / @TotalImpuestosRetenidos as written. */
  totalTrasladados?: number;
  totalRetenidos?: number;
  /** Transferred IVA by rate, and IEPS (docs/cfdi.md#taxes-by-rate). */
  porTasa: TaxesByRate;
  /** Withholdings by tax and rate (docs/cfdi.md#facts). */
  retencionesPorTasa: RetencionPorTasa[];
}

/**
 * Transferred taxes by kind, in the document's currency, unrounded (6 decimals): base and IVA at
 * 16 % and 8 %, the base at 0 % and the exempt base (TipoFactor Exento), and the IEPS (003) amount.
 */
export interface TaxesByRate {
  base16: number;
  iva16: number;
  base8: number;
  iva8: number;
  base0: number;
  baseExenta: number;
  ieps: number;
}

/** A DoctoRelacionado's own taxes (Pagos 2.0 ImpuestosDR), in monedaDR, unrounded. */
export interface ImpuestosDR extends TaxesByRate {
  retencionIva: number;
  retencionIsr: number;
}

/** One pago20:Pago / pago10:Pago (one actual movement of money). */
export interface Pago {
  fechaPago: string;
  formaPago: string;
  monedaP: string;
  /** MXN per unit of monedaP; 1 when the XML omits it. */
  tipoCambioP: number;
  /** In monedaP. */
  monto: number;
  numOperacion?: string;
  doctos: DoctoRelacionado[];
}

/** One paid invoice inside a Pago. Amounts are in monedaDR (the invoice's currency). */
export interface DoctoRelacionado {
  /** IdDocumento, upper-cased. */
  uuid: string;
  monedaDR: string;
  /** Units of monedaDR per unit of monedaP: EquivalenciaDR (2.0) or TipoCambioDR (1.0); 1 when absent. */
  equivalenciaDR: number;
  /** MetodoDePagoDR, Pagos 1.0 only. */
  metodoPagoDR?: MetodoPago;
  // Required in Pagos 2.0; Pagos 1.0 may omit them (only required for PPD invoices).
  numParcialidad?: number;
  impSaldoAnt?: number;
  impPagado?: number;
  impSaldoInsoluto?: number;
  /** The DR's TrasladosDR/RetencionesDR (Pagos 2.0 with ImpuestosDR); absent otherwise (Pagos 1.0 has none). */
  impuestosDR?: ImpuestosDR;
}

export type ParseResult =
  | { ok: true; cfdi: Cfdi }
  | { ok: false; reason: string; code: import('./rejection').RejectionCode };
