import { DiotQuery, MonthQuery, type ReportKind, reportFile, reportJson, YearQuery } from '@folio/api';
import { type FileHandler, principalOf, queryInput } from './file-handler';

/**
 * GET /api/reports/{monthly,annual,diot}: the JSON answer (no format, or format=json), made as text
 * where the report is computed; format=xlsx|pdf: the report as a workbook or PDF download; the
 * DIOT's format=txt: SAT's batch file.
 */
const reportFileHandler = (
  kind: ReportKind,
  query: typeof MonthQuery | typeof YearQuery | typeof DiotQuery,
): FileHandler => ({
  async run(c, call) {
    const input = queryInput(c, query);
    const userId = principalOf(call).user.id;
    if (input.format === 'json') {
      return new Response(await reportJson(call.ctx, userId, kind, input), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }
    const file = await reportFile(call.ctx, userId, kind, input);
    return new Response(file.body, { status: 200, headers: file.headers });
  },
});

export const monthlyReportFile = reportFileHandler('monthly', MonthQuery);
export const annualReportFile = reportFileHandler('annual', YearQuery);
export const diotReportFile = reportFileHandler('diot', DiotQuery);
