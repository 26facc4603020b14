import type { FetchLike, SatTarget } from '@folio/sat/plain';

/** How the server reaches SAT (ApiConfig.sat; apps/api builds it from SAT_SERVICE). */
export interface SatSettings {
  target: SatTarget;
  /** Tests reach the in-process simulator through the app's own `request`. */
  fetch?: FetchLike;
  /** Production: refuse e.firmas of SAT's test authorities (and of the simulator's). */
  refuseTestCertificates: boolean;
  /** Production: authenticate the e.firma once with SAT on upload (a revoked one fails there). */
  authenticateOnUpload: boolean;
}

/** Development and tests without settings: the simulator of the app itself, no upload checks. */
export const satSettingsOf = (config: { sat?: SatSettings; appUrl: string }): SatSettings =>
  config.sat ?? {
    target: { kind: 'simulator', origin: config.appUrl },
    refuseTestCertificates: false,
    authenticateOnUpload: false,
  };
