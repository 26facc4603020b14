import { randomUUID } from 'node:crypto';
import { type Cfdi, cfdiFacts, type RelatedApplication, round2, tipoOf, type Validacion } from '@folio/cfdi';
import type { NewApplication, NewCfdi } from '@folio/db/queries/cfdis';
import { TAXES_VERSION } from '@folio/db/queries/tax-detail';

/** The contract's ComplementoPago: the first Pago's header with every paid invoice of the complement. */
export function complementoPagoOf(cfdi: Cfdi) {
  const [first] = cfdi.pagos ?? [];
  if (!first) return null;
  return {
    fechaPago: first.fechaPago,
    formaPago: first.formaPago,
    monedaPago: first.monedaP,
    tipoCambio: first.tipoCambioP,
    monto: round2(cfdi.pagos!.reduce((sum, p) => sum + p.monto, 0)),
    ...(first.numOperacion ? { numOperacion: first.numOperacion } : {}),
    facturasRelacionadas: cfdi.pagos!.flatMap((p) =>
      p.doctos.map((d) => ({
        uuid: d.uuid,
        monedaDR: d.monedaDR,
        tipoCambioDR: d.equivalenciaDR,
        metodoPagoDR: d.metodoPagoDR ?? 'PPD',
        numParcialidad: d.numParcialidad ?? 1,
        impSaldoAnt: d.impSaldoAnt ?? 0,
        impPagado: d.impPagado ?? 0,
        impSaldoInsoluto: d.impSaldoInsoluto ?? 0,
      })),
    ),
  };
}

/** IVA as the percentage the CFDI applies: its rate, else computed from the amounts (docs/design.md#money-and-dates). */
function ivaPercent(cfdi: Cfdi): number {
  if (cfdi.impuestos.ivaRate !== undefined) return cfdi.impuestos.ivaRate;
  const base = cfdi.subTotal - (cfdi.descuento ?? 0);
  // IVA cannot exceed its base; the cap also keeps an absurd document within the column.
  return base > 0 ? Math.min(100, round2((cfdi.impuestos.trasladosIva / base) * 100)) : 0;
}

export function cfdiRecord(
  cfdi: Cfdi,
  ids: { profileId: string; userId: string },
  side: 'income' | 'expense',
  validacion: Validacion,
): NewCfdi {
  return {
    id: randomUUID(),
    profileId: ids.profileId,
    userId: ids.userId,
    side,
    uuid: cfdi.uuid,
    version: cfdi.version,
    tipoComprobante: cfdi.tipoDeComprobante,
    tipo: tipoOf(cfdi),
    fecha: cfdi.fecha,
    mes: cfdi.mes,
    anio: cfdi.año,
    moneda: cfdi.moneda,
    tipoCambio: cfdi.tipoCambio ?? null,
    metodoPago: cfdi.metodoPago ?? null,
    formaPago: cfdi.formaPago ?? null,
    subtotal: cfdi.subTotal,
    descuento: cfdi.descuento ?? null,
    total: cfdi.total,
    iva: ivaPercent(cfdi),
    ivaAmount: cfdi.impuestos.trasladosIva,
    retencionIvaAmount: cfdi.impuestos.retencionIva,
    retencionIsrAmount: cfdi.impuestos.retencionIsr,
    ...taxDetailOf(cfdi),
    rfcEmisor: cfdi.emisor.rfc,
    nombreEmisor: cfdi.emisor.nombre,
    regimenFiscalEmisor: cfdi.emisor.regimenFiscal || null,
    rfcReceptor: cfdi.receptor.rfc,
    nombreReceptor: cfdi.receptor.nombre,
    regimenFiscalReceptor: cfdi.receptor.regimenFiscal ?? null,
    concepto: cfdi.conceptos[0]?.descripcion ?? null,
    complementoPago: complementoPagoOf(cfdi),
    validacion,
  };
}

/**
 * The CFDI's tax detail columns (docs/cfdi.md#taxes-by-rate, #facts), written by the import and the
 * back-fill.
 */
export function taxDetailOf(cfdi: Cfdi) {
  return {
    ...cfdi.impuestos.porTasa,
    lugarExpedicion: cfdi.lugarExpedicion ?? null,
    facts: cfdiFacts(cfdi),
    taxesVersion: TAXES_VERSION,
  };
}

/** The tax-by-rate columns of a document whose taxes are unknown. */
export const UNKNOWN_TAXES_BY_RATE = {
  base16: null,
  iva16: null,
  base8: null,
  iva8: null,
  base0: null,
  baseExenta: null,
  ieps: null,
} as const;

/** The tax detail columns of a document whose XML cannot be read again. */
export const UNKNOWN_TAX_DETAIL = { ...UNKNOWN_TAXES_BY_RATE, lugarExpedicion: null, facts: null } as const;

/** What a payment application stores beyond its identity (rep, invoice, installment) and amounts. */
export function applicationDetailOf(a: RelatedApplication) {
  return {
    tipoCambioP: a.tipoCambioP,
    equivalenciaDr: a.equivalenciaDR,
    metodoPagoDr: a.metodoPagoDR ?? null,
    drTaxes: a.impuestosDR !== undefined,
    ...(a.impuestosDR ?? { ...UNKNOWN_TAXES_BY_RATE, retencionIva: null, retencionIsr: null }),
  } satisfies Partial<NewApplication>;
}
