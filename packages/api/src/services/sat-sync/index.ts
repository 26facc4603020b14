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
export { openSatSession } from './session';
export { type SatSettings, satSettingsOf } from './settings';
export {
  type CfdiSatStatus,
  createStatusChecker,
  expressionOf,
  type StatusChecker,
  type StatusClientOptions,
} from './status-check';
export { type FetchLike, SAT_TIMEOUT_MS } from './web-client';
