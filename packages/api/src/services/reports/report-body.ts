import { AnnualReport, DiotReport, MonthlyReport } from '../../schemas/report';
import type { ReportJob } from './compute-report';

const SCHEMAS = { monthly: MonthlyReport, annual: AnnualReport, diot: DiotReport };

/**
 * A report's JSON answer, `{"data": …}`, checked against the contract's schema as the procedure's
 * output is, and made where the report was computed (a worker thread on PostgreSQL), so the event
 * loop only sends the text. The annual report of a busy RFC holds thousands of rows by client and
 * supplier: receiving it from the worker, checking it and writing it held the event loop 15–30 ms
 * at a time, every request behind it (docs/benchmarks.md, "Load", round 5).
 */
export function reportBody(kind: ReportJob['report'], report: unknown): string {
  const checked = SCHEMAS[kind].safeParse(report);
  // Our own output off its contract: a server error (500), as tRPC's output check makes it.
  if (!checked.success)
    throw new Error(`the ${kind} report does not match its schema: ${checked.error.message}`);
  return JSON.stringify({ data: checked.data });
}
