// `@folio/sdk/rest`: the REST client and the API's types, with nothing of tRPC (no import of it, in
// the code or the .d.ts), for apps that install @folio/sdk without the optional tRPC peers.
export { createFolioRestClient, type FolioClientOptions, type TokenGetter } from './connection';
export type { DownloadOptions, DownloadProgress, FolioDownload } from './download';
export { FolioApiError, type FolioErrorCode } from './errors';
export type { components, operations, paths } from './generated/openapi';
export type {
  AnnualReport,
  AnnualReportQuery,
  CfdiFile,
  CfdiSatCheck,
  DiotFileFormat,
  DiotReport,
  EfirmaMetadata,
  EfirmaUpload,
  ExpenseExportQuery,
  FolioExports,
  FolioReports,
  FolioRestClient,
  FolioSatSync,
  ImportAnswer,
  InvoiceExportQuery,
  MonthlyReport,
  MonthlyReportQuery,
  PageItem,
  Paginate,
  ReportFileFormat,
  RestCall,
  RestSuccess,
  SatMetadataAnswer,
  SyncJob,
  SyncJobCreated,
  SyncJobInput,
} from './rest';
export type { RetryOptions } from './retry';
export type { RefreshOptions } from './token-refresh';

import type { components } from './generated/openapi';

type Schemas = components['schemas'];
export type Invoice = Schemas['Invoice'];
export type Expense = Schemas['Expense'];
export type Profile = Schemas['Profile'];
export type User = Schemas['User'];
export type Period = Schemas['Period'];
export type SatProduct = Schemas['SatProduct'];
export type FiscalRegime = Schemas['FiscalRegime'];
export type ImportReport = Schemas['ImportReport'];
export type ErrorBody = Schemas['ErrorBody'];
export type Subscription = Schemas['Subscription'];
export type AvailablePlan = Schemas['AvailablePlan'];
export type PlanLimits = Schemas['PlanLimits'];
export type SupportRequest = Schemas['SupportRequest'];
export type SupportRequestCreated = Schemas['SupportRequestCreated'];
