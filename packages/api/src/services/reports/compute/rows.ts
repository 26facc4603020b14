// The rows a report is computed from, as the report queries deliver them.
export type {
  Amount,
  DocParties,
  ImpuestosDR,
  IvaPorTasa,
  PendingDoc,
  ReportDoc,
  ReportManualExpense,
  ReportNomina,
  ReportPayment,
  ReportRows,
  Side,
} from '@folio/db/queries/report-rows';
