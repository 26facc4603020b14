// The SAT side both the server's sync job and the CLI's local mode use (docs/design.md "One SAT
// package"): the @nodecfdi mass-download client over fetch, pointed at SAT or at the simulator,
// SAT's request rules and the reading of downloaded packages. No database, no Folio server code.

export {
  type DownloadEvent,
  type DownloadHooks,
  downloadPeriod,
  SatDownloadFailed,
} from './download-period';
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
export {
  addDays,
  halvesOf,
  plannedRequests,
  type SyncContenido,
  type SyncTipo,
  satPollDelaySeconds,
} from './sync-plan';
export { type FetchLike, FetchWebClient, SAT_TIMEOUT_MS } from './web-client';
