/**
 * Synthetic CFDI 4.0 documents for tests and benchmarks (unsigned; Folio does not verify seals).
 * Amounts are formatted to 2 decimals; the timbre carries the UUID.
 */

import {
  type ACuentaTerceros,
  aCuentaTercerosXml,
  impuestosPXml,
  informacionGlobalXml,
  type PrintedExtras,
  receptorExtranjeroXml,
  totalesTaxAttrs,
} from './printed-elements';
import { esc, fmt, type Party, parties, type Relacionados, root, timbre } from './xml-parts';

export { type NominaSpec, nominaXml } from './nomina';

import type { PaymentSpec } from './payment-spec';

export type { PaymentSpec } from './payment-spec';
export { type PayrollSpec, payrollXml } from './payroll';
export { esc, fmt, type Party, parties, type Relacionados, root, timbre } from './xml-parts';

export interface InvoiceSpec {
  uuid: string;
  emisor: Party;
  receptor: Party;
  /** `YYYY-MM-DDTHH:mm:ss`, Mexico local time. */
  fecha: string;
  metodoPago?: 'PUE' | 'PPD';
  /** Default 03 (transferencia) for PUE, 99 for PPD; an advance applied by an E 07 is 30. */
  formaPago?: string;
  /** The issuer's postal code (default 06000). */
  lugarExpedicion?: string;
  /** T (traslado): no FormaPago nor MetodoPago. */
  tipoDeComprobante?: 'I' | 'E' | 'T';
  moneda?: string;
  tipoCambio?: number;
  /**
   * Concept amounts before tax; IVA at the concept's `ivaRate`, else `ivaRate` (default 16 %);
   * `exento` has none.
   */
  conceptos?: Array<{
    descripcion: string;
    importe: number;
    claveProdServ?: string;
    ivaRate?: number | 'exento';
    /** c_ObjetoImp; taxes are written only for 02 (the default). */
    objetoImp?: string;
    aCuentaTerceros?: ACuentaTerceros;
  }>;
  ivaRate?: number;
  /** Withholdings on every concept, as fractions (ISR 0.0125 of a RESICO supplier, IVA 0.106667). */
  retenciones?: { isr?: number; iva?: number };
  /** CfdiRelacionados blocks (a credit note's `01` to its invoice). */
  relacionados?: Relacionados;
  /** Extra XML appended inside Comprobante (an Addenda, say). */
  extra?: string;
  /** Serie and Folio (default A and 1) and the receptor's UsoCFDI (default G03, gastos en general). */
  serie?: string;
  folio?: string;
  usoCfdi?: string;
  /** Anexo 20 elements a printed CFDI shows (printed-elements.ts). */
  printed?: PrintedExtras;
}

export function invoiceXml(s: InvoiceSpec): string {
  const conceptos = s.conceptos ?? [{ descripcion: 'Servicios de consultoría', importe: 1000 }];
  const lines = conceptos.map((c) =>
    (c.objetoImp ?? '02') === '02' ? conceptoTaxes(c, s) : { traslados: [], retenciones: [] },
  );
  const subtotal = conceptos.reduce((sum, c) => sum + c.importe, 0);
  const traslados = taxTotals(lines.flatMap((l) => l.traslados));
  const retenciones = taxTotals(lines.flatMap((l) => l.retenciones));
  const trasladado = traslados.reduce((sum, t) => sum + t.importe, 0);
  const retenido = retenciones.reduce((sum, t) => sum + t.importe, 0);
  const metodo = s.metodoPago ?? 'PUE';
  const conceptosXml = conceptos
    .map(
      (c, i) =>
        `<cfdi:Concepto ClaveProdServ="${c.claveProdServ ?? '80101500'}" Cantidad="1" ClaveUnidad="E48" Descripcion="${esc(c.descripcion)}" ValorUnitario="${fmt(c.importe)}" Importe="${fmt(c.importe)}" ObjetoImp="${c.objetoImp ?? '02'}">` +
        (lines[i]!.traslados.length + lines[i]!.retenciones.length
          ? `<cfdi:Impuestos>${taxesXml(lines[i]!.traslados, lines[i]!.retenciones, true)}</cfdi:Impuestos>`
          : '') +
        aCuentaTercerosXml(c.aCuentaTerceros) +
        '</cfdi:Concepto>',
    )
    .join('');
  const attrs =
    `Serie="${s.serie ?? 'A'}" Folio="${s.folio ?? '1'}" Fecha="${s.fecha}"${s.tipoDeComprobante === 'T' ? '' : ` FormaPago="${s.formaPago ?? (metodo === 'PUE' ? '03' : '99')}"`} SubTotal="${fmt(subtotal)}" ` +
    `Moneda="${s.moneda ?? 'MXN'}"${s.tipoCambio ? ` TipoCambio="${s.tipoCambio}"` : ''} Total="${fmt(subtotal + trasladado - retenido)}" ` +
    `TipoDeComprobante="${s.tipoDeComprobante ?? 'I'}"${s.tipoDeComprobante === 'T' ? '' : ` MetodoPago="${metodo}"`}`;
  const relacionados = relacionadosXml(s.relacionados);
  const totalsAttrs =
    (retenciones.length ? ` TotalImpuestosRetenidos="${fmt(retenido)}"` : '') +
    (traslados.some((t) => t.factor !== 'Exento') ? ` TotalImpuestosTrasladados="${fmt(trasladado)}"` : '');
  return (
    root(attrs, '', s.printed?.exportacion, s.lugarExpedicion) +
    informacionGlobalXml(s.printed?.informacionGlobal) +
    relacionados +
    parties(s.emisor, s.receptor, s.usoCfdi ?? 'G03', receptorExtranjeroXml(s.printed?.receptorExtranjero)) +
    `<cfdi:Conceptos>${conceptosXml}</cfdi:Conceptos>` +
    (traslados.length + retenciones.length
      ? `<cfdi:Impuestos${totalsAttrs}>${taxesXml(traslados, retenciones, false)}</cfdi:Impuestos>`
      : '') +
    `<cfdi:Complemento>${timbre(s.uuid, s.fecha)}</cfdi:Complemento>${s.extra ?? ''}</cfdi:Comprobante>`
  );
}

/** CfdiRelacionados blocks (a credit note's 01, a substitute's 04). */
const relacionadosXml = (blocks: InvoiceSpec['relacionados']) =>
  (blocks ?? [])
    .map(
      (r) =>
        `<cfdi:CfdiRelacionados TipoRelacion="${r.tipoRelacion}">${r.uuids.map((u) => `<cfdi:CfdiRelacionado UUID="${u}"/>`).join('')}</cfdi:CfdiRelacionados>`,
    )
    .join('');

interface Tax {
  impuesto: '001' | '002';
  factor: 'Tasa' | 'Exento';
  tasa: number;
  base: number;
  importe: number;
}

const cents = (n: number) => Math.round(n * 100) / 100;

function conceptoTaxes(
  c: { importe: number; ivaRate?: number | 'exento' },
  s: Pick<InvoiceSpec, 'ivaRate' | 'retenciones'>,
): { traslados: Tax[]; retenciones: Tax[] } {
  const rate = c.ivaRate ?? s.ivaRate ?? 16;
  const traslado: Tax =
    rate === 'exento'
      ? { impuesto: '002', factor: 'Exento', tasa: 0, base: c.importe, importe: 0 }
      : {
          impuesto: '002',
          factor: 'Tasa',
          tasa: rate / 100,
          base: c.importe,
          importe: cents(c.importe * (rate / 100)),
        };
  const retenciones: Tax[] = [];
  const { isr, iva } = s.retenciones ?? {};
  if (isr)
    retenciones.push({
      impuesto: '001',
      factor: 'Tasa',
      tasa: isr,
      base: c.importe,
      importe: cents(c.importe * isr),
    });
  if (iva)
    retenciones.push({
      impuesto: '002',
      factor: 'Tasa',
      tasa: iva,
      base: c.importe,
      importe: cents(c.importe * iva),
    });
  return { traslados: [traslado], retenciones };
}

/** The document's totals: one line per tax, factor and rate (retentions per tax only). */
function taxTotals(taxes: Tax[]): Tax[] {
  const byKey = new Map<string, Tax>();
  for (const t of taxes) {
    const key = `${t.impuesto}|${t.factor}|${t.tasa}`;
    const acc = byKey.get(key);
    if (acc) {
      acc.base += t.base;
      acc.importe = cents(acc.importe + t.importe);
    } else byKey.set(key, { ...t });
  }
  return [...byKey.values()];
}

function taxesXml(traslados: Tax[], retenciones: Tax[], concepto: boolean): string {
  const traslado = (t: Tax) =>
    t.factor === 'Exento'
      ? `<cfdi:Traslado Base="${fmt(t.base)}" Impuesto="002" TipoFactor="Exento"/>`
      : `<cfdi:Traslado Base="${fmt(t.base)}" Impuesto="${t.impuesto}" TipoFactor="Tasa" TasaOCuota="${t.tasa.toFixed(6)}" Importe="${fmt(t.importe)}"/>`;
  const retencion = (t: Tax) =>
    concepto
      ? `<cfdi:Retencion Base="${fmt(t.base)}" Impuesto="${t.impuesto}" TipoFactor="Tasa" TasaOCuota="${t.tasa.toFixed(6)}" Importe="${fmt(t.importe)}"/>`
      : `<cfdi:Retencion Impuesto="${t.impuesto}" Importe="${fmt(t.importe)}"/>`;
  const r = retenciones.length
    ? `<cfdi:Retenciones>${retenciones.map(retencion).join('')}</cfdi:Retenciones>`
    : '';
  const t = traslados.length ? `<cfdi:Traslados>${traslados.map(traslado).join('')}</cfdi:Traslados>` : '';
  // The schema's order: a concept's Traslados first, the document's Retenciones first.
  return concepto ? t + r : r + t;
}

/** Total of the invoice `invoiceXml` builds for these concepts (subtotal + IVA). */
export function invoiceTotal(s: Pick<InvoiceSpec, 'conceptos' | 'ivaRate'>): number {
  const rate = (s.ivaRate ?? 16) / 100;
  const conceptos = s.conceptos ?? [{ descripcion: '', importe: 1000 }];
  return conceptos.reduce((sum, c) => sum + c.importe + Math.round(c.importe * rate * 100) / 100, 0);
}

/** A payment complement (Pagos 2.0) paying the given invoices. */
export function paymentXml(s: PaymentSpec): string {
  const pagos = s.pagos
    .map((p) => {
      const monto = p.doctos.reduce((sum, d) => sum + d.impPagado / (d.equivalenciaDR ?? 1), 0);
      const doctos = p.doctos
        .map(
          (d) =>
            `<pago20:DoctoRelacionado IdDocumento="${d.uuid}" MonedaDR="${d.monedaDR ?? p.monedaP ?? 'MXN'}"${d.equivalenciaDR ? ` EquivalenciaDR="${d.equivalenciaDR}"` : ''} NumParcialidad="${d.numParcialidad}" ImpSaldoAnt="${fmt(d.impSaldoAnt)}" ImpPagado="${fmt(d.impPagado)}" ImpSaldoInsoluto="${fmt(d.impSaldoInsoluto ?? d.impSaldoAnt - d.impPagado)}" ObjetoImpDR=${d.impuestosDR ? `"02">${impuestosDR(d.impuestosDR)}</pago20:DoctoRelacionado>` : '"01"/>'}`,
        )
        .join('');
      return `<pago20:Pago FechaPago="${p.fechaPago}" FormaDePagoP="${p.formaPago ?? '03'}" MonedaP="${p.monedaP ?? 'MXN'}"${p.tipoCambioP ? ` TipoCambioP="${p.tipoCambioP}"` : p.monedaP && p.monedaP !== 'MXN' ? ' TipoCambioP="1"' : ''} Monto="${fmt(monto)}">${doctos}${impuestosPXml(p)}</pago20:Pago>`;
    })
    .join('');
  // MontoTotalPagos is in MXN: each Monto times its TipoCambioP.
  const total = s.pagos.reduce(
    (sum, p) =>
      sum + p.doctos.reduce((m, d) => m + d.impPagado / (d.equivalenciaDR ?? 1), 0) * (p.tipoCambioP ?? 1),
    0,
  );
  return (
    root(
      `Serie="P" Folio="1" Fecha="${s.fecha}" SubTotal="0" Moneda="XXX" Total="0" TipoDeComprobante="P"`,
      ' xmlns:pago20="http://www.sat.gob.mx/Pagos20"',
    ) +
    relacionadosXml(s.relacionados) +
    parties(s.emisor, s.receptor, 'CP01') +
    '<cfdi:Conceptos><cfdi:Concepto ClaveProdServ="84111506" Cantidad="1" ClaveUnidad="ACT" Descripcion="Pago" ValorUnitario="0" Importe="0" ObjetoImp="01"/></cfdi:Conceptos>' +
    `<cfdi:Complemento><pago20:Pagos Version="2.0"><pago20:Totales${totalesTaxAttrs(s.pagos)} MontoTotalPagos="${fmt(total)}"/>${pagos}</pago20:Pagos>${timbre(s.uuid, s.fecha)}</cfdi:Complemento></cfdi:Comprobante>`
  );
}

function impuestosDR(i: NonNullable<PaymentSpec['pagos'][number]['doctos'][number]['impuestosDR']>): string {
  const line = (
    kind: 'Retencion' | 'Traslado',
    impuesto: string,
    t: { base: number; tasa: number; importe: number },
  ) =>
    `<pago20:${kind}DR BaseDR="${fmt(t.base)}" ImpuestoDR="${impuesto}" TipoFactorDR="Tasa" TasaOCuotaDR="${t.tasa.toFixed(6)}" ImporteDR="${fmt(t.importe)}"/>`;
  const r = i.retenciones?.length
    ? `<pago20:RetencionesDR>${i.retenciones.map((t) => line('Retencion', t.impuesto, t)).join('')}</pago20:RetencionesDR>`
    : '';
  const t = i.traslados?.length
    ? `<pago20:TrasladosDR>${i.traslados.map((t) => line('Traslado', '002', t)).join('')}</pago20:TrasladosDR>`
    : '';
  return `<pago20:ImpuestosDR>${r}${t}</pago20:ImpuestosDR>`;
}

let counter = 0;
/** A fresh upper-case UUID for a generated document. */
export function newUuid(): string {
  counter++;
  const hex = (crypto.randomUUID().replace(/-/g, '') + counter.toString(16)).slice(-32).toUpperCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
