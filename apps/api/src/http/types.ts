import type { Deps, Logger } from '@folio/api';
import type { AppLogger } from '../logger';

/** `log` is the request's: it carries the request id. */
export type AppVariables = { requestId: string; log: Logger };
export type AppEnv = { Variables: AppVariables };

/** What the HTTP layer needs beyond the API's dependencies. */
export interface AppDeps extends Omit<Deps, 'log'> {
  log: AppLogger;
  /** Reads X-Forwarded-For for the client IP (only behind a trusted proxy). */
  trustProxy: boolean;
  /** Mount /__dev/* (never in production, never with the real services configured). */
  devSurfaces: boolean;
  /** Send Strict-Transport-Security (production). */
  hsts: boolean;
  version: string;
  ping(): Promise<void>;
}
