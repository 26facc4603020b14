// The rows a report is computed from, as the report queries deliver them.
export type {
  Amount,
  DocParties,
  ImpuestosDR,
  IvaPorTasa,
  NotedInvoice,
  PendingDoc,
  ReportDoc,
  ReportManualExpense,
  ReportNomina,
  ReportNote,
  ReportPayment,
  ReportRows,
  Side,
} from '@folio/db/queries/report-rows';
