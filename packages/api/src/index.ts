export type { ValidSession } from '@folio/auth';
export { MAX_CFDI_BYTES, XML_TOO_LARGE } from '@folio/cfdi';
export {
  type ApiConfig,
  type Context,
  createContext,
  type Deps,
  type Logger,
  type RequestInfo,
  type TokenSource,
} from './context';
export {
  ERROR_CODES,
  ERROR_DOCS_PATH,
  type ErrorCode,
  errorHelpLink,
  type FieldError,
  isErrorCode,
} from './error-codes';
export { AppError, badRequest } from './errors';
export {
  ERROR_LABELS,
  type ErrorBody,
  errorBody,
  type Failure,
  failure,
} from './failure';
export { NUL_MESSAGE, nulInputError, nulPath } from './input-guard';
export { coerceParams } from './rest/coerce';
export type { ProcedureName } from './rest/procedure-name';
export { refuseUnknownParams } from './rest/query-params';
export { byDispatchOrder, ROUTE_TABLE, TRPC_ONLY } from './rest/route-table';
export { procedureOf, type RestRoute, resolveRoutes, restRoutes } from './rest/routes';
export {
  FILE_HANDLERS,
  type FileEntry,
  type FileHandlerName,
  type HttpMethod,
  isProcedureEntry,
  type ProcedureEntry,
  type RestOptions,
  type RouteEntry,
} from './rest/table/entry';
export { type AppRouter, appRouter } from './root';
export { MAX_EFIRMA_FILE_BYTES } from './schemas/efirma';
export {
  ExpenseExportFields,
  ExpenseExportQuery,
  InvoiceExportFields,
  InvoiceExportQuery,
} from './schemas/export';
export type { FileReport, ImportReport } from './schemas/import-report';
export { DiotFields, DiotQuery, MonthFields, MonthQuery, YearFields, YearQuery } from './schemas/report';
export { requireSession } from './services/api-keys/rules';
export { authenticate } from './services/auth/authenticate';
export { ACCESS_COOKIE } from './services/auth/cookies';
export { CLIENT_LOGIN_FAILURES } from './services/auth/login';
export type { Principal } from './services/auth/principal';
export { requireVerifiedEmail } from './services/auth/require-verified-email';
export { SECRET_LINK_MAILS } from './services/auth/secret-link-mails';
export { ALREADY_VERIFIED } from './services/auth/verify-email';
export { type BackfillResult, backfillTaxDetail } from './services/cfdi/backfill';
export { type ImportFile, importCfdiFiles, openImport } from './services/cfdi/import';
export { getInvoiceXml } from './services/cfdi/read-invoices';
export { backfillSubstitutions } from './services/cfdi/sat-status';
export { backfillSearchDictionary } from './services/cfdi/search-dictionary';
export { deriveDevKeyring, type EfirmaKeyring, parseEfirmaKeys } from './services/efirma/keyring';
export { storeEfirma } from './services/efirma/store-efirma';
export { type ExportFile, exportExpenses, exportInvoices } from './services/exports/export-listing';
export { invoicePdf } from './services/exports/invoice-pdf';
export { PDF_LIMITS, type PdfLimits } from './services/exports/pdf-pool';
export { EXCEL_EXPORT_REQUIRED, MAX_EXPORT_ROWS, PDF_EXPORT_REQUIRED } from './services/exports/rules';
export {
  type AppJobRunner,
  type AppJobs,
  type AppJobsOptions,
  createAppJobs,
} from './services/jobs/app-jobs';
export type { MailJobs, MailKicker } from './services/jobs/mail-jobs';
export {
  createJobQueue,
  type EnqueueOptions,
  type JobHandler,
  type JobMap,
  type JobQueue,
  type JobQueueOptions,
  type JobRun,
  type JobSource,
  type JobState,
  jobSource,
  type QueueSpec,
  type QueueSpecs,
  type RetryPolicy,
} from './services/jobs/queue';
export { type ReportFile, type ReportKind, reportFile, reportJson } from './services/reports/build-reports';
export { annualReport } from './services/reports/compute/monthly';
export { yearRange } from './services/reports/rules';
export { AI_SEARCH_REQUIRED, searchByMeaning } from './services/sat/ai-search';
export { mailSatAlerts } from './services/sat/alert-mail';
export { type CatalogSource, ensureSatCatalog, importSatCatalog } from './services/sat/catalog-import';
export {
  DEFAULT_MEANING_MODEL_FILE,
  keepMeaningModelIn,
  meaningModelFor,
  prepareMeaningModel,
} from './services/sat/meaning/cache';
export { readMeaningModel } from './services/sat/meaning/store';
export {
  importSatMetadata,
  type MetadataFile,
  metadataMessage,
} from './services/sat-metadata/import-metadata';
export {
  authedProcedure,
  createCallerFactory,
  type Meta,
  publicProcedure,
  router,
} from './trpc';
