import {
  FORMA_PAGO,
  IMPUESTO,
  OBJETO_IMP,
  type PagosTotal,
  type PrintedCfdi,
  type PrintedDoctoTaxes,
  type PrintedTaxes,
  withName,
} from '@folio/cfdi';
import { money, percent } from './cfdi-pdf-format';
import { type Column, drawFields, drawTable, drawTitledTable, type Flow } from './pdf-layout';

/**
 * The payment complement (REP) as printed (tax-rules §7, Anexo 20): each Pago with its forma de
 * pago, currency and exchange rate; per related document the installment, the balances before and
 * after, the equivalence, its ObjetoImpDR and taxes; each Pago's ImpuestosP; the Totales in MXN.
 */

const DOCTO_COLUMNS: Column[] = [
  { header: 'Documento relacionado (UUID)', width: 170 },
  { header: 'Moneda', width: 38 },
  { header: 'Equivalencia', width: 52, align: 'right' },
  { header: 'Parcialidad', width: 46, align: 'right' },
  { header: 'Saldo anterior', width: 78, align: 'right' },
  { header: 'Importe pagado', width: 78, align: 'right' },
  { header: 'Saldo insoluto', width: 78, align: 'right' },
];

/** A tax line: traslado or retención, the tax, its factor and rate, base and amount. */
const TAX_COLUMNS: Column[] = [
  { header: 'Impuesto', width: 120 },
  { header: 'Tipo factor', width: 70 },
  { header: 'Tasa o cuota', width: 70, align: 'right' },
  { header: 'Base', width: 100, align: 'right' },
  { header: 'Importe', width: 100, align: 'right' },
];

type Tax = PrintedTaxes['traslados'][number];

function taxCells(kind: string, x: Tax): string[] {
  return [
    `${kind} ${IMPUESTO[x.impuesto] ?? x.impuesto}`,
    x.tipoFactor ?? '',
    x.tasaOCuota === undefined ? '' : x.tipoFactor === 'Cuota' ? String(x.tasaOCuota) : percent(x.tasaOCuota),
    money(x.base),
    money(x.importe),
  ];
}

const taxRows = (t: PrintedTaxes): string[][] => [
  ...t.traslados.map((x) => taxCells('Traslado', x)),
  ...t.retenciones.map((x) => taxCells('Retención', x)),
];

/** Each document's ObjetoImpDR and taxes (ImpuestosDR), one row per tax. */
const DR_COLUMNS: Column[] = [
  { header: 'Documento relacionado (UUID)', width: 170 },
  { header: 'ObjetoImpDR', width: 90 },
  ...TAX_COLUMNS.map((c) => ({ ...c, width: c.width * (280 / 460) })),
];

function doctoTaxRows(uuid: string, t: PrintedDoctoTaxes): string[][] {
  const objeto = t.objetoImpDR ? withName(t.objetoImpDR, OBJETO_IMP) : '';
  const rows = taxRows(t);
  return rows.length ? rows.map((r) => [uuid, objeto, ...r]) : [[uuid, objeto, '', '', '', '', '']];
}

const TOTAL_LABELS: Array<[PagosTotal, string]> = [
  ['MontoTotalPagos', 'Monto total de pagos'],
  ['TotalTrasladosBaseIVA16', 'Base IVA 16%'],
  ['TotalTrasladosImpuestoIVA16', 'IVA 16%'],
  ['TotalTrasladosBaseIVA8', 'Base IVA 8%'],
  ['TotalTrasladosImpuestoIVA8', 'IVA 8%'],
  ['TotalTrasladosBaseIVA0', 'Base IVA 0%'],
  ['TotalTrasladosImpuestoIVA0', 'IVA 0%'],
  ['TotalTrasladosBaseIVAExento', 'Base IVA exento'],
  ['TotalRetencionesIVA', 'IVA retenido'],
  ['TotalRetencionesISR', 'ISR retenido'],
  ['TotalRetencionesIEPS', 'IEPS retenido'],
];

export function drawPagos(flow: Flow, p: PrintedCfdi) {
  const pagos = p.cfdi.pagos ?? [];
  const detalle = p.pagosDetalle;
  for (const [i, pago] of pagos.entries()) {
    const taxes = detalle?.pagos[i];
    drawFields(flow, `Pago ${i + 1} de ${pagos.length}`, [
      ['Fecha de pago', pago.fechaPago],
      ['Forma de pago', withName(pago.formaPago, FORMA_PAGO)],
      ['Moneda', pago.monedaP],
      ['Tipo de cambio', String(pago.tipoCambioP)],
      ['Monto', money(pago.monto)],
      ['Número de operación', pago.numOperacion],
    ]);
    drawTable(
      flow,
      DOCTO_COLUMNS,
      pago.doctos.map((d) => [
        d.uuid,
        d.monedaDR,
        String(d.equivalenciaDR),
        d.numParcialidad === undefined ? '' : String(d.numParcialidad),
        money(d.impSaldoAnt),
        money(d.impPagado),
        money(d.impSaldoInsoluto),
      ]),
    );
    flow.y += 6;
    if (taxes) {
      drawTitledTable(
        flow,
        `Impuestos de los documentos del pago ${i + 1} (ImpuestosDR)`,
        DR_COLUMNS,
        pago.doctos.flatMap((d, j) => (taxes.doctos[j] ? doctoTaxRows(d.uuid, taxes.doctos[j]) : [])),
      );
      drawTitledTable(
        flow,
        `Impuestos del pago ${i + 1} (ImpuestosP)`,
        TAX_COLUMNS,
        taxRows(taxes.impuestosP),
      );
    }
    flow.y += 2;
  }
  const totales = detalle?.totales ?? {};
  drawFields(
    flow,
    'Totales de los pagos (MXN)',
    TOTAL_LABELS.map(([key, label]) => [label, money(totales[key])]),
  );
}
