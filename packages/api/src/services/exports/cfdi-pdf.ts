import {
  EXPORTACION,
  FORMA_PAGO,
  IMPUESTO,
  MESES_GLOBAL,
  METODO_PAGO,
  OBJETO_IMP,
  PERIODICIDAD,
  type PrintedCfdi,
  type PrintedConcepto,
  REGIMEN_FISCAL,
  TIPO_DE_COMPROBANTE,
  TIPO_RELACION,
  USO_CFDI,
  withName,
} from '@folio/cfdi';
import QRCode from 'qrcode';
import { money, quantity, taxLine } from './cfdi-pdf-format';
import { drawNominas } from './cfdi-pdf-nomina';
import { drawPagos } from './cfdi-pdf-pagos';
import {
  type Column,
  type Doc,
  drawFields,
  drawFooters,
  drawTable,
  Flow,
  fitted,
  GREY,
  LEFT,
  LINE,
  newPdf,
  rule,
  WIDTH,
} from './pdf-layout';

/**
 * The representación impresa of a CFDI (plan-features §2) drawn with pdfkit: real text in an
 * embedded font, the concept table continued over as many pages as it needs with its header
 * repeated, "Página X de N" on every page, the stamp data and the SAT verification QR code drawn as
 * vectors. Layout in PDF points (pdf-layout.ts).
 */

/** A labelled block of long text (seals, cadena original) in the mono face, broken anywhere. */
function drawLong(flow: Flow, label: string, value: string, x: number, width: number) {
  const { doc } = flow;
  value = fitted(value, 'mono', 6, width);
  doc.font('mono').fontSize(6);
  const height = doc.heightOfString(value, { width }) + 10;
  flow.room(height);
  doc.font('bold').fontSize(7).fillColor(GREY).text(label, x, flow.y, { width });
  doc
    .font('mono')
    .fontSize(6)
    .fillColor('black')
    .text(value, x, flow.y + 9, { width, lineBreak: true });
  flow.y += height + 3;
}

/** The QR code as filled squares (exact at any zoom), `size` points wide with its quiet zone inside. */
function drawQr(doc: Doc, text: string, x: number, y: number, size: number) {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const cell = size / (n + 8); // 4 modules of quiet zone each side
  doc.rect(x, y, size, size).fill('white');
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (qr.modules.get(r, c)) doc.rect(x + (c + 4) * cell, y + (r + 4) * cell, cell, cell);
    }
  }
  doc.fill('black');
}

function drawHeader(flow: Flow, p: PrintedCfdi) {
  const { doc } = flow;
  const c = p.cfdi;
  const right = LEFT + WIDTH * 0.58;
  const rightWidth = WIDTH * 0.42;
  doc
    .font('bold')
    .fontSize(12)
    .fillColor('black')
    .text(fitted(c.emisor.nombre || c.emisor.rfc, 'bold', 12, WIDTH * 0.56), LEFT, flow.y, {
      width: WIDTH * 0.56,
    });
  doc.font('regular').fontSize(8);
  doc.text(`RFC: ${c.emisor.rfc}`);
  doc.text(`Régimen fiscal: ${withName(c.emisor.regimenFiscal, REGIMEN_FISCAL)}`);
  if (p.lugarExpedicion) doc.text(`Lugar de expedición (C.P.): ${p.lugarExpedicion}`);
  const leftEnd = doc.y;

  const facts: [string, string | undefined][] = [
    ['Comprobante', `${withName(c.tipoDeComprobante, TIPO_DE_COMPROBANTE)} · CFDI ${c.version}`],
    ['Serie y folio', [c.serie, c.folio].filter(Boolean).join(' ') || undefined],
    ['Folio fiscal (UUID)', c.uuid],
    ['Fecha de emisión', c.fecha],
    ['Lugar de expedición', p.lugarExpedicion],
    ['Fecha de certificación', c.fechaTimbrado],
  ];
  let y = flow.y;
  for (const [label, value] of facts) {
    if (!value) continue;
    doc.font('bold').fontSize(7).fillColor(GREY).text(label, right, y, { width: rightWidth });
    y = doc.y;
    doc.font('regular').fontSize(8).fillColor('black').text(value, right, y, { width: rightWidth });
    y = doc.y + 1;
  }
  doc
    .rect(right - 6, flow.y - 4, rightWidth + 6, y - flow.y + 6)
    .lineWidth(0.5)
    .strokeColor(LINE)
    .stroke();
  flow.y = Math.max(leftEnd, y) + 8;
  rule(flow);

  drawFields(flow, 'Receptor', [
    ['Nombre', c.receptor.nombre],
    ['RFC', c.receptor.rfc],
    ['Régimen fiscal', c.receptor.regimenFiscal && withName(c.receptor.regimenFiscal, REGIMEN_FISCAL)],
    ['Domicilio fiscal (C.P.)', c.receptor.domicilioFiscal],
    ['Uso del CFDI', c.receptor.usoCfdi && withName(c.receptor.usoCfdi, USO_CFDI)],
    ['Residencia fiscal', p.residenciaFiscal],
    ['NumRegIdTrib', p.numRegIdTrib],
  ]);
  drawFields(flow, 'Pago', [
    ['Método de pago', c.metodoPago && withName(c.metodoPago, METODO_PAGO)],
    ['Forma de pago', c.formaPago && withName(c.formaPago, FORMA_PAGO)],
    ['Moneda', c.moneda],
    ['Tipo de cambio', c.tipoCambio === undefined ? undefined : String(c.tipoCambio)],
    ['Condiciones de pago', p.condicionesDePago],
    ['Exportación', p.exportacion && withName(p.exportacion, EXPORTACION)],
  ]);
  const global = p.informacionGlobal;
  if (global) {
    drawFields(flow, 'Información global', [
      ['Periodicidad', global.periodicidad && withName(global.periodicidad, PERIODICIDAD)],
      ['Meses', global.meses && withName(global.meses, MESES_GLOBAL)],
      ['Año', global.año],
    ]);
  }
  if (c.relacionados.length) {
    drawFields(
      flow,
      'CFDI relacionados',
      c.relacionados.map((r) => [
        `Tipo de relación ${withName(r.tipoRelacion, TIPO_RELACION)}`,
        r.uuids.join(', '),
      ]),
    );
  }
}

const CONCEPT_COLUMNS: Column[] = [
  { header: 'Clave SAT', width: 46 },
  { header: 'Cantidad', width: 40, align: 'right' },
  { header: 'Unidad', width: 52 },
  { header: 'Descripción', width: 190 },
  { header: 'Valor unitario', width: 60, align: 'right' },
  { header: 'Importe', width: 62, align: 'right' },
  { header: 'Impuestos', width: 90 },
];

/** "A cuenta de terceros: RFC, nombre, régimen, C.P." under the description. */
function terceros(c: PrintedConcepto): string | undefined {
  const t = c.aCuentaTerceros;
  if (!t) return undefined;
  const regimen = t.regimenFiscal && withName(t.regimenFiscal, REGIMEN_FISCAL);
  const cp = t.domicilioFiscal && `C.P. ${t.domicilioFiscal}`;
  return `\nA cuenta de terceros: ${[t.rfc, t.nombre, regimen, cp].filter(Boolean).join(', ')}`;
}

function drawConceptos(flow: Flow, p: PrintedCfdi) {
  flow.room(30);
  flow.doc.font('bold').fontSize(9).fillColor('black').text('Conceptos', LEFT, flow.y);
  flow.y += 12;
  drawTable(
    flow,
    CONCEPT_COLUMNS,
    p.conceptos.map((c) => [
      c.claveProdServ,
      quantity(c.cantidad),
      [c.claveUnidad, c.unidad].filter(Boolean).join(' '),
      [c.noIdentificacion && `[${c.noIdentificacion}]`, c.descripcion, terceros(c)].filter(Boolean).join(' '),
      money(c.valorUnitario),
      c.descuento ? `${money(c.importe)}\nDesc. ${money(c.descuento)}` : money(c.importe),
      [
        ...c.traslados.map((t) => taxLine(t)),
        ...c.retenciones.map((t) => taxLine(t, true)),
        c.objetoImp && `ObjetoImp ${withName(c.objetoImp, OBJETO_IMP)}`,
      ]
        .filter(Boolean)
        .join('\n'),
    ]),
  );
  flow.y += 6;
}

function drawTotals(flow: Flow, p: PrintedCfdi) {
  const { doc } = flow;
  const c = p.cfdi;
  const lines: [string, string][] = [['Subtotal', money(c.subTotal)]];
  if (c.descuento) lines.push(['Descuento', money(c.descuento)]);
  for (const t of p.traslados)
    lines.push([`Traslado ${taxLine({ ...t, importe: undefined }).trim()}`, money(t.importe)]);
  for (const t of p.retenciones)
    lines.push([`Retención ${IMPUESTO[t.impuesto] ?? t.impuesto}`, money(t.importe)]);
  lines.push([`Total ${c.moneda}`, money(c.total)]);
  const height = lines.length * 11 + 8;
  flow.room(height + 24);
  const x = LEFT + WIDTH * 0.6;
  const w = WIDTH * 0.4;
  let y = flow.y;
  lines.forEach(([label, value], i) => {
    const last = i === lines.length - 1;
    doc
      .font(last ? 'bold' : 'regular')
      .fontSize(last ? 9 : 8)
      .fillColor('black');
    doc.text(label, x, y, { width: w * 0.55 });
    doc.text(value, x + w * 0.55, y, { width: w * 0.45, align: 'right' });
    y += 11;
  });
  doc
    .font('bold')
    .fontSize(7)
    .fillColor(GREY)
    .text('Importe con letra', LEFT, flow.y, { width: WIDTH * 0.56 });
  doc
    .font('regular')
    .fontSize(8)
    .fillColor('black')
    .text(p.totalEnLetra, LEFT, doc.y + 1, { width: WIDTH * 0.56 });
  flow.y = Math.max(y, doc.y) + 10;
}

function drawStamp(flow: Flow, p: PrintedCfdi) {
  const { doc } = flow;
  const qrSize = 110;
  const x = LEFT + qrSize + 12;
  const width = WIDTH - qrSize - 12;
  flow.room(qrSize + 20);
  rule(flow);
  const top = flow.y;
  drawQr(doc, p.verificationUrl, LEFT, top, qrSize);
  const facts: [string, string][] = [
    ['No. de serie del certificado del emisor', p.noCertificado ?? ''],
    ['No. de serie del certificado del SAT', p.timbre.noCertificadoSAT],
    ['Fecha y hora de certificación', p.timbre.fechaTimbrado],
    ['RFC del proveedor de certificación', p.timbre.rfcProvCertif],
  ];
  let y = top;
  for (const [label, value] of facts) {
    doc.font('bold').fontSize(7).fillColor(GREY).text(`${label}: `, x, y, { width, continued: true });
    doc.font('regular').fillColor('black').text(value);
    y = doc.y + 1;
  }
  flow.y = y + 3;
  const pages = doc.bufferedPageRange().count;
  drawLong(flow, 'Sello digital del CFDI', p.sello, x, width);
  drawLong(flow, 'Sello digital del SAT', p.timbre.selloSAT, x, width);
  drawLong(
    flow,
    'Cadena original del complemento de certificación digital del SAT',
    p.cadenaOriginalTimbre,
    x,
    width,
  );
  // The QR code may reach lower than the text beside it (unless the text went on to a new page).
  if (doc.bufferedPageRange().count === pages) flow.y = Math.max(flow.y, top + qrSize + 4);
}

/** The PDF of one printed CFDI, as bytes. */
export function renderCfdiPdf(p: PrintedCfdi): Promise<Buffer> {
  const { doc, done } = newPdf({
    Title: `CFDI ${p.cfdi.uuid}`,
    Author: p.cfdi.emisor.nombre || p.cfdi.emisor.rfc,
    Subject: `Representación impresa de un CFDI ${p.cfdi.version}`,
  });
  const flow = new Flow(doc);
  drawHeader(flow, p);
  drawConceptos(flow, p);
  if (p.cfdi.pagos) drawPagos(flow, p);
  drawNominas(flow, p);
  drawTotals(flow, p);
  drawStamp(flow, p);
  drawFooters(doc, `Este documento es una representación impresa de un CFDI · ${p.cfdi.uuid}`);
  doc.end();
  return done;
}
