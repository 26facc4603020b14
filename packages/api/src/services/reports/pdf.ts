import type { Cell } from '../exports/columns';
import {
  type Column,
  type Doc,
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
} from '../exports/pdf-layout';
import { MESES, type PrintedSheet } from './printed-sheets';

// The reports as a PDF a person hands to their accountant: the same sections the workbook has (one
// table per sheet, so both files always hold the same figures), amounts as es-MX pesos, and for the
// year a bar chart of the twelve months drawn with pdfkit's vector primitives.

const pesos = new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' });
const wholePesos = new Intl.NumberFormat('es-MX', {
  style: 'currency',
  currency: 'MXN',
  maximumFractionDigits: 0,
});

/** Counts and months are not amounts (nor rates, shown as percentages): a column or row named so keeps its plain number. */
const PLAIN = /^(Documentos|Mes)/;

function cellText(cell: Cell, header: string, rowLabel: Cell): string {
  if (typeof cell !== 'number') return cell ?? '';
  if (header === 'Mes') return MESES[cell - 1] ?? String(cell);
  const named = (re: RegExp) => re.test(header) || (typeof rowLabel === 'string' && re.test(rowLabel));
  if (named(/^Tasa/)) return `${cell.toLocaleString('es-MX', { maximumFractionDigits: 2 })} %`;
  if (named(PLAIN)) return cell.toLocaleString('es-MX', { maximumFractionDigits: 2 });
  return pesos.format(cell);
}

/** Text columns get more room than amounts; a lone text column (advertencias) takes the page. */
function layout(sheet: PrintedSheet): Column[] {
  const weight = (kind: string) => (kind === 'text' ? 2.2 : 1);
  const sum = sheet.columns.reduce((s, c) => s + weight(c.kind), 0);
  return sheet.columns.map((c) => ({
    header: c.header,
    width: (WIDTH * weight(c.kind)) / sum,
    align: c.kind === 'text' ? 'left' : 'right',
  }));
}

function drawSection(flow: Flow, sheet: PrintedSheet) {
  flow.room(40);
  flow.doc.font('bold').fontSize(10).fillColor('black').text(sheet.name, LEFT, flow.y);
  flow.y += 14;
  const rows = sheet.rows.map((row) => sheet.columns.map((c, i) => cellText(row[i], c.header, row[0])));
  if (rows.length === 0) {
    flow.doc.font('regular').fontSize(8).fillColor(GREY).text('Sin registros.', LEFT, flow.y);
    flow.y += 12;
  } else drawTable(flow, layout(sheet), rows, sheet.columns.length > 8 ? 6.5 : 8);
  flow.y += 10;
}

export interface ChartMonth {
  ingresos: number;
  egresos: number;
  iva_a_cargo: number;
}

const SERIES: Array<{ key: keyof ChartMonth; label: string; color: string }> = [
  { key: 'ingresos', label: 'Ingresos', color: '#2e7d32' },
  { key: 'egresos', label: 'Egresos', color: '#c62828' },
  { key: 'iva_a_cargo', label: 'IVA a cargo', color: '#1565c0' },
];

/** A step of 1, 2 or 5 × 10^k that splits `span` into at most about five intervals. */
function niceStep(span: number): number {
  const raw = span / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power) as number;
}

/** Grouped bars per month (ingresos, egresos, IVA a cargo) on a peso axis, with a legend. */
function drawChart(flow: Flow, months: ChartMonth[]) {
  const { doc } = flow;
  const height = 230;
  flow.room(height + 30);
  doc.font('bold').fontSize(10).fillColor('black').text('Los doce meses', LEFT, flow.y);
  flow.y += 16;
  const values = months.flatMap((m) => SERIES.map((s) => m[s.key]));
  const step = niceStep(Math.max(...values, 0) - Math.min(...values, 0) || 1);
  const hi = Math.ceil(Math.max(...values, 0) / step) * step || step;
  const lo = Math.floor(Math.min(...values, 0) / step) * step;
  const axisWidth = 62;
  const plot = { x: LEFT + axisWidth, y: flow.y + 4, w: WIDTH - axisWidth, h: height - 50 };
  const yOf = (v: number) => plot.y + plot.h - ((v - lo) / (hi - lo)) * plot.h;

  doc.font('regular').fontSize(7);
  for (let v = lo; v <= hi + step / 2; v += step) {
    const y = yOf(v);
    doc
      .moveTo(plot.x, y)
      .lineTo(plot.x + plot.w, y)
      .lineWidth(v === 0 ? 0.8 : 0.3)
      .strokeColor(v === 0 ? 'black' : LINE)
      .stroke();
    doc.fillColor(GREY).text(wholePesos.format(v), LEFT, y - 3.5, { width: axisWidth - 6, align: 'right' });
  }
  const group = plot.w / months.length;
  const bar = (group * 0.8) / SERIES.length;
  months.forEach((m, i) => {
    const x0 = plot.x + i * group + group * 0.1;
    SERIES.forEach((s, j) => {
      const [a, b] = [yOf(Math.max(m[s.key], 0)), yOf(Math.min(m[s.key], 0))];
      if (b - a > 0) doc.rect(x0 + j * bar, a, bar, b - a).fill(s.color);
    });
    doc.fillColor('black').text(MESES[i]!.slice(0, 3), plot.x + i * group, plot.y + plot.h + 4, {
      width: group,
      align: 'center',
    });
  });
  let x = plot.x;
  const legendY = plot.y + plot.h + 20;
  for (const s of SERIES) {
    doc.rect(x, legendY, 8, 8).fill(s.color);
    doc
      .fillColor('black')
      .fontSize(8)
      .text(s.label, x + 12, legendY, { lineBreak: false });
    x += 12 + doc.widthOfString(s.label) + 18;
  }
  doc
    .fillColor(GREY)
    .fontSize(7)
    .text('Pesos (MXN). IVA a cargo: el saldo a pagar de cada mes.', x, legendY + 1, {
      lineBreak: false,
    });
  flow.y = legendY + 22;
}

export interface ReportPdf {
  /** "Reporte mensual", "Reporte anual", "DIOT". */
  title: string;
  /** "marzo 2025", "2025". */
  period: string;
  profile: { rfc: string; nombre: string };
  nivel?: string;
  sheets: PrintedSheet[];
  chart?: ChartMonth[];
}

function drawHeading(flow: Flow, r: ReportPdf) {
  const { doc } = flow;
  doc
    .font('bold')
    .fontSize(15)
    .fillColor('black')
    .text(`${r.title} · ${r.period}`, LEFT, flow.y, { width: WIDTH });
  doc
    .font('regular')
    .fontSize(9)
    .text(fitted(`${r.profile.nombre} · RFC ${r.profile.rfc}`, 'regular', 9, WIDTH), { width: WIDTH });
  const facts = [r.nivel && `Nivel del reporte: ${r.nivel}`, 'Importes en pesos mexicanos (MXN)'];
  doc.fillColor(GREY).fontSize(8).text(facts.filter(Boolean).join(' · '), { width: WIDTH });
  flow.y = doc.y + 4;
  rule(flow);
  flow.y += 4;
}

/** The report's PDF, as bytes: heading, the chart (annual), then every section as a table. */
export function renderReportPdf(r: ReportPdf): Promise<Buffer> {
  const { doc, done } = newPdf({
    Title: `${r.title} ${r.profile.rfc} ${r.period}`,
    Author: r.profile.nombre || r.profile.rfc,
    Subject: `${r.title} ${r.period}`,
  });
  const flow = new Flow(doc);
  drawHeading(flow, r);
  if (r.chart) drawChart(flow, r.chart);
  for (const sheet of r.sheets) drawSection(flow, sheet);
  drawFooters(doc as Doc, `Folio · ${r.title} · ${r.profile.rfc} · ${r.period}`);
  doc.end();
  return done;
}
