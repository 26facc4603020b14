// The SAT side of SAT sync, for the sync job and the server (docs/sat-sync.md#gateway).

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
export {
  type Content,
  type Direction,
  type DownloadAnswer,
  endpointsFor,
  type QueryAnswer,
  queryParametersOf,
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
} from './gateway';
export { cfdiFilesOf, metadataFilesOf, type PackageFile } from './package-files';
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
export { type FetchLike, SAT_TIMEOUT_MS } from './web-client';
