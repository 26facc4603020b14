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
  endpointsFor,
  queryParametersOf,
  SatGateway,
  type SatGatewayOptions,
  type SatQuery,
} from './gateway';
export { cfdiFilesOf, metadataFilesOf } from './package-files';
export * from './plain';
export { FetchWebClient, SAT_TIMEOUT_MS } from './web-client';
