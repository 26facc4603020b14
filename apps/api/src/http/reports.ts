import { DiotQuery, MonthQuery, type ReportKind, reportFile, YearQuery } from '@folio/api';
import { type FileHandler, principalOf, queryInput } from './file-handler';

/**
 * GET /api/reports/{monthly,annual,diot}?format=xlsx|pdf: the report as a workbook or PDF download;
 * the DIOT's format=txt: SAT's batch file. The table entry runs the procedure for any other format.
 */
const reportFileHandler = (
  kind: ReportKind,
  query: typeof MonthQuery | typeof YearQuery | typeof DiotQuery,
): FileHandler => ({
  async run(c, call) {
    const file = await reportFile(call.ctx, principalOf(call).user.id, kind, queryInput(c, query));
    return new Response(file.body, { status: 200, headers: file.headers });
  },
});

export const monthlyReportFile = reportFileHandler('monthly', MonthQuery);
export const annualReportFile = reportFileHandler('annual', YearQuery);
export const diotReportFile = reportFileHandler('diot', DiotQuery);
