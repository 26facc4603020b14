import { getEntitlements } from '@folio/billing';
import { reportRows } from '@folio/db/queries/reports';
import type { Context } from '../../context';
import { badRequest, forbidden } from '../../errors';
import { authorizeProfile } from '../profiles/access';
import { diotReport } from './compute/diot';
import {
  annualReport,
  includes,
  type MonthlyReport,
  monthlyReport,
  type ReportProfile,
} from './compute/monthly';
import { monthRange, type ReportFormat, reportLevelRequired, yearRange } from './rules';

// The reports of plan-features §3: the caller's plan decides the level (and whether the report is
// served at all), the rows are read in a few statements, the pure module computes.

export interface MonthQuery {
  profileId: string;
  año: number;
  mes: number;
  format: ReportFormat;
}

export type YearQuery = Omit<MonthQuery, 'mes'>;

/**
 * json is answered here. xlsx and pdf are files: they will be served by a file route in apps/api
 * that calls the same report functions (the exports' writer); until then they are refused clearly.
 */
function jsonOnly(format: ReportFormat) {
  if (format !== 'json') {
    throw badRequest(
      `format=${format} is not available for reports yet; use format=json`,
      'format_unsupported',
    );
  }
}

async function prepare(ctx: Context, userId: string, q: { profileId: string; format: ReportFormat }) {
  jsonOnly(q.format);
  const [{ limits }, profile] = await Promise.all([
    getEntitlements(ctx.db, userId),
    authorizeProfile(ctx, userId, q.profileId, 'read'),
  ]);
  const reportProfile: ReportProfile = {
    id: profile.id,
    rfc: profile.rfc,
    nombre: profile.nombre,
    tipoPersona: profile.tipoPersona,
    regimenesFiscales: profile.regimenesFiscales,
  };
  return { nivel: limits.reports, profile: reportProfile };
}

const now = () => new Date();

/** GET /api/reports/monthly: every plan, at its level. */
export async function getMonthlyReport(ctx: Context, userId: string, q: MonthQuery): Promise<MonthlyReport> {
  const { nivel, profile } = await prepare(ctx, userId, q);
  const rows = await reportRows(ctx.db, { profileId: profile.id, ...monthRange(q.año, q.mes) });
  return monthlyReport(profile, rows, q, nivel, now());
}

/** GET /api/reports/annual: the twelve months from one read of the year (complete and advanced). */
export async function getAnnualReport(ctx: Context, userId: string, q: YearQuery) {
  const { nivel, profile } = await prepare(ctx, userId, q);
  if (!includes(nivel, 'complete'))
    throw forbidden(reportLevelRequired('The annual report', 'complete'), 'plan_required');
  const rows = await reportRows(ctx.db, { profileId: profile.id, ...yearRange(q.año) });
  return annualReport(profile, rows, q.año, nivel, now());
}

/** GET /api/reports/diot: suppliers paid in the month (advanced). */
export async function getDiotReport(ctx: Context, userId: string, q: MonthQuery) {
  const { nivel, profile } = await prepare(ctx, userId, q);
  if (!includes(nivel, 'advanced'))
    throw forbidden(reportLevelRequired('The DIOT', 'advanced'), 'plan_required');
  const rows = await reportRows(ctx.db, { profileId: profile.id, ...monthRange(q.año, q.mes) });
  const { proveedores, advertencias } = diotReport(rows, q);
  return {
    profile: { id: profile.id, rfc: profile.rfc, nombre: profile.nombre },
    periodo: { año: q.año, mes: q.mes },
    proveedores,
    advertencias,
  };
}
