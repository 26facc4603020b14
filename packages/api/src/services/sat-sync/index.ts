// The SAT side of SAT sync, for the sync job and the server (docs/sat-sync.md#gateway); what needs
// no database is @folio/sat's, re-exported here for the app and its tests.

export {
  type Content,
  cfdiFilesOf,
  type Direction,
  type DownloadAnswer,
  endpointsFor,
  type FetchLike,
  metadataFilesOf,
  type PackageFile,
  type QueryAnswer,
  queryParametersOf,
  SAT_TIMEOUT_MS,
  type SatCredentials,
  SatGateway,
  type SatGatewayOptions,
  type SatQuery,
  SatQueryInvalid,
  SatRefused,
  type SatTarget,
  SatUnavailable,
  SIMULATOR_BASE,
  simulatorPaths,
  type VerifyAnswer,
} from '@folio/sat';
export { CONSENT_TEXT, CONSENT_VERSION } from '../../schemas/efirma';
export { SAT_SYNC_REQUIRED } from '../efirma/rules';
export {
  type EfirmaMetadata,
  type EfirmaUpload,
  readEfirma,
  removeEfirma,
  storeEfirma,
} from '../efirma/store-efirma';
export { dailyPeriod, enqueueDailySyncs, enqueueMissingCfdi } from './daily-sync';
export { type DayRun, dayRuns, MAX_DAY_RUNS } from './day-runs';
export { DEFAULT_SYNC_TIMING, runSyncStep, type SyncTiming } from './run-sync';
export { openSatSession } from './session';
export { type SatSettings, satSettingsOf } from './settings';
export {
  type CfdiSatStatus,
  createStatusChecker,
  expressionOf,
  type StatusChecker,
  type StatusClientOptions,
} from './status-check';
export {
  BASIC_SYNC_JOBS_PER_MONTH,
  createSyncJob,
  getSyncJob,
  listSyncJobs,
  type SyncContenido,
  type SyncEstado,
  type SyncJobAnswer,
  type SyncJobInput,
  type SyncRequestAnswer,
  type SyncTipo,
} from './sync-jobs';
export { checkSyncPeriod } from './sync-period';
export {
  DAILY_SYNC_JOB,
  SYNC_JOB,
  type SyncJobSender,
  type SyncJobs,
  type SyncQueueOptions,
  syncQueues,
} from './sync-queue';
