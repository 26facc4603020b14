// What the report queries (reports.ts) deliver: one profile's documents, payments and manual
// expenses, amounts as written (numeric text), in the document's currency.

export type Side = 'income' | 'expense';
export type Amount = number | string | null;

/** IVA of a CFDI (or of a payment's TrasladosDR) by rate: bases and IVA at 16 %, 8 %, 0 % and exempt. */
export interface IvaPorTasa {
  base16: Amount;
  iva16: Amount;
  base8: Amount;
  iva8: Amount;
  base0: Amount;
  baseExenta: Amount;
}

/** An income (issued) or expense (received) CFDI of type I or E. */
export interface ReportDoc {
  id: string;
  uuid: string;
  side: Side;
  tipoComprobante: 'I' | 'E';
  metodoPago: 'PUE' | 'PPD';
  /** Comprobante@Fecha as written (Mexico City local time). */
  fecha: string;
  moneda: string;
  tipoCambio: Amount;
  subtotal: Amount;
  descuento: Amount;
  total: Amount;
  ivaTrasladado: Amount;
  retencionIva: Amount;
  retencionIsr: Amount;
  /** IVA percentage of the document (16, 8, 0): the fallback when `ivaPorTasa` is unknown. */
  ivaTasa: Amount;
  ivaPorTasa: IvaPorTasa | null;
  rfcEmisor: string;
  nombreEmisor: string;
  rfcReceptor: string;
  nombreReceptor: string;
  valido: boolean;
  /** How many documents the row stands for (the report query sums alike documents into one row). */
  documentos: number;
  /**
   * How many of them still wait for the tax-detail back-fill (`taxes_version` NULL: stored before
   * migration 0011, by-rate columns unknown until then).
   */
  pendingTaxDetail: number;
  /** c_FormaPago of the CFDI (01 cash: LIVA 5-I); null when absent. */
  formaPago: string | null;
  /** From the CFDI's facts (0 / false before they are derived): the base of ObjetoImp 01 concepts. */
  baseNoObjeto: Amount;
  /** Interest (LIVA 5-C) by kind: with IVA, object without IVA (read as exempt), non-object. */
  interesGravado: Amount;
  interesExento: Amount;
  interesNoObjeto: Amount;
  /** Vehicle fuel (ClaveProdServ 151015xx) among its concepts. */
  combustible: boolean;
  /** The user's tags (docs/iva-isr.md): a received CFDI's use (LIVA 5-V), an issued one among LIVA 5-C's acts. */
  usoIva: 'gravado' | 'exento' | null;
  acto5c: boolean;
}

/** The taxes a complement states for one related document (Pagos 2.0 TrasladosDR / RetencionesDR). */
export interface ImpuestosDR {
  retencionIva: Amount;
  retencionIsr: Amount;
  porTasa: IvaPorTasa;
}

/** Money applied to one invoice: a complement's DoctoRelacionado or a manual payment. */
export interface ReportPayment {
  source: 'rep' | 'manual';
  /** The complement (rep) or the invoice (manual): for the warnings. */
  ref: string;
  side: Side;
  relatedUuid: string;
  /** The complement's issuer: a payment counts for an invoice of the same issuer only. */
  rfcEmisor: string | null;
  fechaPago: string;
  /** MonedaP / the manual payment's currency. */
  monedaP: string;
  tipoCambioP: Amount;
  /** Units of the invoice's currency per unit of MonedaP (1 when absent). */
  equivalenciaDr: Amount;
  /** ImpPagado (rep, in MonedaDR) or the manual amount (in monedaP). */
  importe: Amount;
  monedaDr: string;
  impuestosDr: ImpuestosDR | null;
  /** The complement still waits for the tax-detail back-fill (its DR taxes and TipoCambioP unknown till then). */
  repPendingTaxDetail: boolean;
  /**
   * Why the complement is defective for this invoice (tax-rules §3: its ImpSaldoAnt, ImpSaldoInsoluto
   * or NumParcialidad disagree with the invoice's history), as its payment status found.
   */
  defectos: string[];
  /** The invoice it pays, when the profile has it. */
  invoice: ReportDoc | null;
  /** FormaDePagoP of the complement, or the manual payment's c_FormaPago. */
  formaPago: string | null;
}

/** An expense typed in by hand. */
export interface ReportManualExpense {
  id: string;
  fecha: string;
  subtotal: Amount;
  ivaAmount: Amount;
  total: Amount;
  ivaTasa: Amount;
  isPaid: boolean;
  paymentDate: string | null;
  rfcEmisor: string | null;
  nombreEmisor: string | null;
  /** What supports crediting its IVA (LIVA 5-II), how it was paid and its use (tax-rules.md §4). */
  uuidCfdi: string | null;
  pedimento: string | null;
  proveedorExtranjeroDigital: boolean;
  formaPago: string | null;
  usoIva: 'gravado' | 'exento' | null;
}

/** The parties of a document: who issued it, who received it (the counterparty depends on the side). */
export type DocParties = Pick<
  ReportDoc,
  'side' | 'rfcEmisor' | 'nombreEmisor' | 'rfcReceptor' | 'nombreReceptor'
>;

/** A PPD invoice with everything that lowered its balance, for `pendientes` as of a month's end. */
export interface PendingDoc {
  /** What a balance needs of the invoice (a year has tens of thousands: no more is read). */
  doc: DocParties & Pick<ReportDoc, 'uuid' | 'fecha' | 'moneda' | 'tipoCambio' | 'total' | 'valido'>;
  /**
   * Payments (ImpPagado in the invoice's currency) and credit notes (their whole Total, with the
   * invoices they name in list order: NULL before the back-fill), by date.
   */
  abonos: Array<{ fecha: string; importe: Amount; nota?: { uuid: string; relacionados: string[] | null } }>;
}

/** An invoice a credit note relates to, with its dated history (tax-rules §2). */
export interface NotedInvoice {
  uuid: string;
  tipoComprobante: string;
  metodoPago: 'PUE' | 'PPD';
  fecha: string;
  moneda: string;
  total: Amount;
  /** IVA withheld on it (LIVA 1-A moves a refund to the month it was collected). */
  retencionIva: Amount;
  valido: boolean;
  /**
   * What lowered its balance, by date: payments (ImpPagado of its issuer's complements and manual
   * payments, in its currency) and credit notes (their Total; TipoRelacion 01, 03 or 07).
   */
  history: Array<{
    fecha: string;
    importe: Amount;
    kind: 'pago' | 'nota';
    ref: string;
    tipoRelacion: string | null;
    /** A note's invoices in list order (NULL before the back-fill, or for a payment). */
    related: string[] | null;
  }>;
}

/** A credit note (E) that may move cash in the period: dated in it, or dated later about an invoice of it. */
export interface ReportNote {
  /** Its own figures (one document, never summed with others). */
  doc: ReportDoc;
  formaPago: string | null;
  /** Its CfdiRelacionados of TipoRelacion 01, 03 and 07, in list order. */
  relacionados: Array<{ tipoRelacion: string; uuid: string }>;
  /** The profile's invoices (I) among them, and those of the other notes naming one of them. */
  invoices: NotedInvoice[];
}

/** Everything one report is computed from. */
export interface ReportRows {
  docs: ReportDoc[];
  payments: ReportPayment[];
  manualExpenses: ReportManualExpense[];
  pending: PendingDoc[];
  notes: ReportNote[];
  /** Nómina totals by month of FechaPago (tax-rules §5); absent: none. */
  nomina?: ReportNomina[];
}

/** The Nómina 1.2 totals of one month's N CFDI on one side (expense: the profile is the employer). */
export interface ReportNomina {
  side: Side;
  /** YYYY-MM of the complement's FechaPago. */
  month: string;
  documentos: number;
  percepcionesGravadas: Amount;
  percepcionesExentas: Amount;
  deducciones: Amount;
  otrosPagos: Amount;
  subsidioCausado: Amount;
  isrRetenido: Amount;
}
