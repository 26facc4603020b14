/**
 * Anexo 20 elements the printed CFDI shows (tax-rules §7), for generate.ts: InformacionGlobal,
 * a foreign receiver's ResidenciaFiscal/NumRegIdTrib, Exportacion, a concept's ACuentaTerceros,
 * and a payment complement's ImpuestosP and Totales computed from its documents' ImpuestosDR.
 */

import type { PaymentSpec } from './payment-spec';
import { esc, fmt } from './xml-parts';

export interface ACuentaTerceros {
  rfc: string;
  nombre: string;
  regimen: string;
  domicilioFiscal: string;
}

export interface PrintedExtras {
  /** c_Exportacion (default 01). */
  exportacion?: string;
  /** A factura global's period: c_Periodicidad, c_Meses, year. */
  informacionGlobal?: { periodicidad: string; meses: string; año: number };
  /** A foreign receiver (RFC XEXX010101000): its country (c_Pais) and tax id. */
  receptorExtranjero?: { residenciaFiscal: string; numRegIdTrib: string };
}

export const informacionGlobalXml = (g: PrintedExtras['informacionGlobal']) =>
  g ? `<cfdi:InformacionGlobal Periodicidad="${g.periodicidad}" Meses="${g.meses}" Año="${g.año}"/>` : '';

export const receptorExtranjeroXml = (r: PrintedExtras['receptorExtranjero']) =>
  r ? ` ResidenciaFiscal="${r.residenciaFiscal}" NumRegIdTrib="${esc(r.numRegIdTrib)}"` : '';

export const aCuentaTercerosXml = (t: ACuentaTerceros | undefined) =>
  t
    ? `<cfdi:ACuentaTerceros RfcACuentaTerceros="${esc(t.rfc)}" NombreACuentaTerceros="${esc(t.nombre)}" RegimenFiscalACuentaTerceros="${t.regimen}" DomicilioFiscalACuentaTerceros="${t.domicilioFiscal}"/>`
    : '';

type Pago = PaymentSpec['pagos'][number];

/** A payment's taxes in MonedaP: each document's ImpuestosDR divided by its EquivalenciaDR. */
function pagoTaxes(p: Pago) {
  const traslados = new Map<number, { base: number; importe: number }>();
  const retenciones = new Map<string, number>();
  for (const d of p.doctos) {
    const eq = d.equivalenciaDR ?? 1;
    for (const t of d.impuestosDR?.traslados ?? []) {
      const acc = traslados.get(t.tasa) ?? { base: 0, importe: 0 };
      traslados.set(t.tasa, { base: acc.base + t.base / eq, importe: acc.importe + t.importe / eq });
    }
    for (const r of d.impuestosDR?.retenciones ?? [])
      retenciones.set(r.impuesto, (retenciones.get(r.impuesto) ?? 0) + r.importe / eq);
  }
  return { traslados, retenciones };
}

/** pago20:ImpuestosP of one payment (absent when its documents declare no taxes). */
export function impuestosPXml(p: Pago): string {
  const { traslados, retenciones } = pagoTaxes(p);
  if (!traslados.size && !retenciones.size) return '';
  const r = [...retenciones]
    .map(([impuesto, importe]) => `<pago20:RetencionP ImpuestoP="${impuesto}" ImporteP="${fmt(importe)}"/>`)
    .join('');
  const t = [...traslados]
    .map(
      ([tasa, x]) =>
        `<pago20:TrasladoP BaseP="${fmt(x.base)}" ImpuestoP="002" TipoFactorP="Tasa" TasaOCuotaP="${tasa.toFixed(6)}" ImporteP="${fmt(x.importe)}"/>`,
    )
    .join('');
  return `<pago20:ImpuestosP>${r ? `<pago20:RetencionesP>${r}</pago20:RetencionesP>` : ''}${t ? `<pago20:TrasladosP>${t}</pago20:TrasladosP>` : ''}</pago20:ImpuestosP>`;
}

/** pago20:Totales' tax attributes: every payment's taxes times its TipoCambioP, in MXN. */
export function totalesTaxAttrs(pagos: Pago[]): string {
  const totals = new Map<string, number>();
  const add = (name: string, v: number) => totals.set(name, (totals.get(name) ?? 0) + v);
  for (const p of pagos) {
    const tc = p.tipoCambioP ?? 1;
    const { traslados, retenciones } = pagoTaxes(p);
    for (const [tasa, x] of traslados) {
      const rate = Math.round(tasa * 100);
      add(`TotalTrasladosBaseIVA${rate}`, x.base * tc);
      add(`TotalTrasladosImpuestoIVA${rate}`, x.importe * tc);
    }
    for (const [impuesto, importe] of retenciones)
      add(`TotalRetenciones${impuesto === '001' ? 'ISR' : 'IVA'}`, importe * tc);
  }
  return [...totals].map(([name, v]) => ` ${name}="${fmt(v)}"`).join('');
}
