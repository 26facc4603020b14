import { getEntitlements } from '@folio/billing';
import type { Context } from '../../context';
import { badRequest, planRequired } from '../../errors';
import type { DiotFormat } from '../../schemas/report';
import { renderPdf } from '../exports/pdf-pool';
import { attachment, CONTENT_TYPES, EXCEL_EXPORT_REQUIRED, PDF_EXPORT_REQUIRED } from '../exports/rules';
import { xlsxWorkbook } from '../exports/writers';
import { authorizeProfile } from '../profiles/access';
import { diotTxt } from './compute/diot-txt';
import { includes, type MonthlyReport, type ReportProfile } from './compute/monthly';
import type { ReportJob } from './compute-report';
import { reportBodyFor, reportFor } from './off-thread';
import { MESES, printedSheets } from './printed-sheets';
import { reportLevelRequired } from './rules';
import { annualSheets, diotSheets, monthlySheets } from './xlsx';

// The reports of plan-features §3: the caller's plan decides the level (and whether the report is
// served at all); compute-report.ts reads the rows and computes, where off-thread.ts says.

export interface MonthQuery {
  profileId: string;
  año: number;
  mes: number;
  /** `txt` for the DIOT only (its schema alone admits it). */
  format: DiotFormat;
}

export type YearQuery = Omit<MonthQuery, 'mes'>;

async function prepare(ctx: Context, userId: string, profileRef: string) {
  const [{ limits }, profile] = await Promise.all([
    getEntitlements(ctx.db, userId),
    authorizeProfile(ctx, userId, profileRef, 'read'),
  ]);
  const reportProfile: ReportProfile = {
    id: profile.id,
    rfc: profile.rfc,
    nombre: profile.nombre,
    tipoPersona: profile.tipoPersona,
    regimenesFiscales: profile.regimenesFiscales,
  };
  return { limits, nivel: limits.reports, profile: reportProfile };
}

const now = () => new Date();

type JobOf<K extends ReportKind> = Extract<ReportJob, { report: K }>;

async function monthlyJob(ctx: Context, userId: string, q: MonthQuery): Promise<JobOf<'monthly'>> {
  const { nivel, profile } = await prepare(ctx, userId, q.profileId);
  return { report: 'monthly', profile, period: { año: q.año, mes: q.mes }, nivel, now: now() };
}

async function annualJob(ctx: Context, userId: string, q: YearQuery): Promise<JobOf<'annual'>> {
  const { nivel, profile } = await prepare(ctx, userId, q.profileId);
  if (!includes(nivel, 'complete')) throw planRequired(reportLevelRequired('The annual report', 'complete'));
  return { report: 'annual', profile, año: q.año, nivel, now: now() };
}

async function diotJob(ctx: Context, userId: string, q: MonthQuery): Promise<JobOf<'diot'>> {
  const { nivel, profile } = await prepare(ctx, userId, q.profileId);
  if (!includes(nivel, 'advanced')) throw planRequired(reportLevelRequired('The DIOT', 'advanced'));
  return { report: 'diot', profile, period: { año: q.año, mes: q.mes } };
}

/** Each report's job for the caller (its plan's level, or the refusal). */
const JOBS = { monthly: monthlyJob, annual: annualJob, diot: diotJob };

// Each report computed where off-thread.ts says.
const monthly = async (ctx: Context, userId: string, q: MonthQuery) =>
  reportFor(ctx, await monthlyJob(ctx, userId, q));
const annual = async (ctx: Context, userId: string, q: YearQuery) =>
  reportFor(ctx, await annualJob(ctx, userId, q));
const diot = async (ctx: Context, userId: string, q: MonthQuery) =>
  reportFor(ctx, await diotJob(ctx, userId, q));

/** The JSON answer; a file format is a download (REST), not a procedure's answer. */
function jsonOnly(format: DiotFormat) {
  if (format !== 'json') {
    throw badRequest(
      `format=${format} is a file download: ask the REST route (GET /api/reports/…)`,
      'format_unsupported',
    );
  }
}

/** GET /api/reports/monthly: every plan, at its level. */
export async function getMonthlyReport(ctx: Context, userId: string, q: MonthQuery): Promise<MonthlyReport> {
  jsonOnly(q.format);
  return monthly(ctx, userId, q);
}

/** GET /api/reports/annual: the twelve months from one read of the year (complete and advanced). */
export async function getAnnualReport(ctx: Context, userId: string, q: YearQuery) {
  jsonOnly(q.format);
  return annual(ctx, userId, q);
}

/** GET /api/reports/diot: suppliers paid in the month (advanced). */
export async function getDiotReport(ctx: Context, userId: string, q: MonthQuery) {
  jsonOnly(q.format);
  return diot(ctx, userId, q);
}

/**
 * The JSON answer of GET /api/reports/{kind} as REST sends it, `{"data": …}`: the same report as the
 * procedure's, checked against the same schema, but made as text where it is computed (a worker
 * thread on PostgreSQL) so the event loop only sends it (report-body.ts).
 */
export async function reportJson(
  ctx: Context,
  userId: string,
  kind: ReportKind,
  q: MonthQuery | YearQuery,
): Promise<string> {
  jsonOnly(q.format);
  return reportBodyFor(ctx, await JOBS[kind](ctx, userId, q as MonthQuery));
}

export type ReportKind = 'monthly' | 'annual' | 'diot';

export interface ReportFile {
  headers: Record<string, string>;
  body: ReadableStream<Uint8Array>;
}

const FILE_PREFIX: Record<ReportKind, string> = {
  monthly: 'reporte-mensual',
  annual: 'reporte-anual',
  diot: 'diot',
};

const TITLE: Record<ReportKind, string> = {
  monthly: 'Reporte mensual',
  annual: 'Reporte anual',
  diot: 'DIOT',
};

/** The report computed in full, as the sections both files draw (one sheet each). */
async function sectionsOf(ctx: Context, userId: string, kind: ReportKind, q: MonthQuery | YearQuery) {
  if (kind === 'annual') {
    const r = await annual(ctx, userId, q);
    const chart = r.meses.map((m) => ({
      ingresos: m.ingresos.total,
      egresos: m.egresos.total,
      iva_a_cargo: m.iva?.a_cargo ?? 0,
    }));
    return { profile: r.profile, nivel: r.nivel, sheets: annualSheets(r), chart };
  }
  if (kind === 'diot') {
    const r = await diot(ctx, userId, q as MonthQuery);
    return { profile: r.profile, sheets: diotSheets(r) };
  }
  const r = await monthly(ctx, userId, q as MonthQuery);
  return { profile: r.profile, nivel: r.nivel, sheets: monthlySheets(r) };
}

/**
 * format=xlsx (needs `exportExcel`): one sheet per section; format=pdf (needs `exportPDF`): the same
 * sections as tables, with a chart of the twelve months in the annual report. The report is
 * computed in full first, so every refusal still answers with its status.
 */
export async function reportFile(
  ctx: Context,
  userId: string,
  kind: ReportKind,
  q: MonthQuery | YearQuery,
): Promise<ReportFile> {
  if (q.format === 'txt') return diotTxtFile(ctx, userId, q as MonthQuery);
  const format = q.format === 'pdf' ? 'pdf' : 'xlsx';
  const { limits } = await getEntitlements(ctx.db, userId);
  if (format === 'xlsx' && !limits.exportExcel) throw planRequired(EXCEL_EXPORT_REQUIRED);
  if (format === 'pdf' && !limits.exportPDF) throw planRequired(PDF_EXPORT_REQUIRED);
  const r = await sectionsOf(ctx, userId, kind, q);
  const mes = 'mes' in q ? String(q.mes).padStart(2, '0') : undefined;
  const filename = `${FILE_PREFIX[kind]}-${r.profile.rfc}-${q.año}${mes ? `-${mes}` : ''}.${format}`;
  if (format === 'pdf') {
    const report = {
      ...r,
      sheets: await printedSheets(r.sheets),
      title: TITLE[kind],
      period: 'mes' in q ? `${MESES[q.mes - 1]} ${q.año}` : String(q.año),
    };
    // Drawn in a worker thread (pdf-pool.ts): 503 with Retry-After when they are all busy.
    const { pdf } = await renderPdf({ kind: 'report-pdf', report }, ctx.config.pdf);
    return {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': attachment(filename),
        'Content-Length': String(pdf.byteLength),
      },
      body: new Blob([new Uint8Array(pdf)]).stream(),
    };
  }
  const body = xlsxWorkbook(r.sheets, (err) =>
    ctx.log.error({ err, filename }, 'report workbook failed mid-stream'),
  );
  return {
    headers: { 'Content-Type': CONTENT_TYPES.xlsx, 'Content-Disposition': attachment(filename) },
    body,
  };
}

/** format=txt of the DIOT: SAT's batch file (needs what the DIOT needs, no export feature). */
async function diotTxtFile(ctx: Context, userId: string, q: MonthQuery): Promise<ReportFile> {
  const r = await diot(ctx, userId, q);
  const text = new TextEncoder().encode(diotTxt(r.proveedores));
  const filename = `${FILE_PREFIX.diot}-${r.profile.rfc}-${q.año}-${String(q.mes).padStart(2, '0')}.txt`;
  return {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Disposition': attachment(filename),
      'Content-Length': String(text.byteLength),
    },
    body: new Blob([text]).stream(),
  };
}
