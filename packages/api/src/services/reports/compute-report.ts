import type { Executor } from '@folio/db';
import { reportRows } from '@folio/db/queries/reports';
import { statusNotices } from '@folio/db/queries/sat-status';
import { taxSettingsOf } from '@folio/db/queries/tax-settings';
import {
  annualReportSteps,
  monthKey,
  monthlyReportSteps,
  type Nivel,
  type Period,
  type ReportProfile,
} from './compute/monthly';
import { settingsOf } from './compute/year';
import { diotOfMonth } from './diot';
import { monthRange, yearRange } from './rules';
import { statusAdvertencias } from './status-notices';
import { finishYielding } from './yielding';

// A report once the caller may see it: its rows read in a few statements, the pure module computes.
// The same code runs on the event loop (PGlite) and in a worker thread on its own connections
// (PostgreSQL: off-thread.ts).

export type ReportJob =
  | { report: 'monthly'; profile: ReportProfile; period: Period; nivel: Nivel; now: Date }
  | { report: 'annual'; profile: ReportProfile; año: number; nivel: Nivel; now: Date }
  | { report: 'diot'; profile: ReportProfile; period: Period };

async function monthly(db: Executor, job: Extract<ReportJob, { report: 'monthly' }>) {
  const { profile, period, nivel, now } = job;
  // From January: a month carries the year's IVA balances and RESICO income so far (tax-rules §4, §5);
  // the SAT-status notices are the month's own.
  const month = { profileId: profile.id, ...monthRange(period.año, period.mes) };
  const [rows, settings, notices] = await Promise.all([
    reportRows(db, { ...month, from: yearRange(period.año).from }),
    taxSettingsOf(db, profile.id, period.año),
    statusNotices(db, month),
  ]);
  // In steps: on the event loop a year of documents would hold it for 100+ ms (docs/benchmarks.md).
  const report = await finishYielding(
    monthlyReportSteps(profile, rows, period, nivel, now, settingsOf(settings)),
  );
  report.advertencias.push(...statusAdvertencias(notices, monthKey(period)));
  return report;
}

async function annual(db: Executor, job: Extract<ReportJob, { report: 'annual' }>) {
  const { profile, año, nivel, now } = job;
  const range = { profileId: profile.id, ...yearRange(año) };
  const [rows, settings, notices] = await Promise.all([
    reportRows(db, range),
    taxSettingsOf(db, profile.id, año),
    statusNotices(db, range),
  ]);
  const report = await finishYielding(
    annualReportSteps(profile, rows, año, nivel, now, settingsOf(settings)),
  );
  for (const m of report.meses)
    m.advertencias.push(...statusAdvertencias(notices, monthKey({ año, mes: m.periodo.mes })));
  return report;
}

async function diot(db: Executor, job: Extract<ReportJob, { report: 'diot' }>) {
  const { profile, period } = job;
  const range = { profileId: profile.id, ...monthRange(period.año, period.mes) };
  const [{ proveedores, advertencias }, notices] = await Promise.all([
    diotOfMonth(db, profile, period),
    statusNotices(db, range),
  ]);
  advertencias.push(...statusAdvertencias(notices, monthKey(period)));
  return {
    profile: { id: profile.id, rfc: profile.rfc, nombre: profile.nombre },
    periodo: { año: period.año, mes: period.mes },
    proveedores,
    advertencias,
  };
}

const REPORTS = { monthly, annual, diot };
export type ReportOf<K extends ReportJob['report']> = Awaited<ReturnType<(typeof REPORTS)[K]>>;

/** Reads and computes the report `job` asks for on `db`. */
export function computeReport<J extends ReportJob>(db: Executor, job: J): Promise<ReportOf<J['report']>> {
  const compute = REPORTS[job.report] as unknown as (db: Executor, job: J) => Promise<ReportOf<J['report']>>;
  return compute(db, job);
}
