// The SAT side of SAT sync, for the sync job and the server (docs/sat-sync.md#gateway).
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
export {
  type CfdiSatStatus,
  createStatusChecker,
  expressionOf,
  type StatusChecker,
  type StatusClientOptions,
} from './status-check';
export { type FetchLike, SAT_TIMEOUT_MS } from './web-client';
