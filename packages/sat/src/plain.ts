// What needs none of the @nodecfdi clients: the server imports these at start and loads the clients
// (this package's index) by their first use (docs/benchmarks.md#memory).

export type {
  Content,
  Direction,
  DownloadAnswer,
  QueryAnswer,
  SatCredentials,
  VerifyAnswer,
} from './gateway';
export type { PackageFile } from './package-files';
export { SatQueryInvalid, SatRefused, SatUnavailable } from './sat-errors';
export { type SatTarget, SIMULATOR_BASE, simulatorPaths } from './sat-target';
export {
  addDays,
  halvesOf,
  plannedRequests,
  type SyncContenido,
  type SyncTipo,
  satPollDelaySeconds,
} from './sync-plan';
export type { FetchLike } from './web-client';
