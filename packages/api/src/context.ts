import type { BillingProvider } from '@folio/billing';
import type { Db, DbKind } from '@folio/db';
import type { Principal } from './services/auth/principal';
import type { EfirmaKeyring } from './services/efirma/keyring';
import type { PdfLimits } from './services/exports/pdf-pool';
import type { SatSettings } from './services/sat-sync/settings';
import type { SyncJobSender } from './services/sat-sync/sync-job-names';
import type { WorkerLimits } from './services/workers/types';

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Settings the procedures need; apps/api builds them from the environment. */
export interface ApiConfig {
  authSecret: string;
  sessionTtlMs: number;
  /** How long a session read stays good in this process (0 or absent: read on every request); services/auth/session-cache.ts. */
  sessionCacheMs?: number;
  /** Public origin of the app: CSRF check for cookie requests, links in emails. */
  appUrl: string;
  secureCookies: boolean;
  /** Where support requests are mailed (SUPPORT_EMAIL; docs/support.md). */
  supportEmail: string;
  /** Rows one export may hold; MAX_EXPORT_ROWS (100,000) unless a test lowers it. */
  maxExportRows?: number;
  /** Limits of the PDF worker threads; PDF_LIMITS where absent (pdf-pool.ts). */
  pdf?: Partial<PdfLimits>;
  /** Limits of the report worker threads (PostgreSQL only); REPORT_LIMITS where absent (reports/off-thread.ts). */
  reportWorkers?: Partial<WorkerLimits>;
  /** Master keys of the stored e.firmas (EFIRMA_ENCRYPTION_KEY); absent, one derived from authSecret (not in production). */
  efirmaKeyring?: EfirmaKeyring;
  /** Where the SAT clients talk and how strictly an upload is checked; the simulator at appUrl when absent. */
  sat?: SatSettings;
  /** NODE_ENV=production: webhook URLs must be https and public (docs/webhooks.md#urls). */
  production?: boolean;
}

/** Long-lived dependencies, built once per process. */
export interface Deps {
  db: Db;
  dbKind: DbKind;
  /** The PostgreSQL server's URL (kind postgres): report workers open their own connections on it. */
  databaseUrl?: string;
  config: ApiConfig;
  /** The payment provider (Stripe, or the offline dev provider). */
  billing: BillingProvider;
  /** Asks the email dispatcher to deliver what was just queued. */
  kickEmail(): void;
  log: Logger;
  /** The job queue, for services that enqueue work in their transaction (SAT sync); absent in scripts. */
  jobs?: SyncJobSender;
}

export type TokenSource = 'bearer' | 'cookie';

/** What the transport knows about the HTTP request. */
export interface RequestInfo {
  requestId: string;
  token: string | null;
  tokenSource: TokenSource | null;
  /** HTTP method, or null when called in-process (createCaller). */
  method: string | null;
  origin: string | null;
  /** `Sec-Fetch-Site` as the browser sent it (`cross-site`, `same-origin`…); absent outside browsers. */
  fetchSite?: string | null;
  ip: string | null;
  /** `Idempotency-Key` of a retried write, when the client sent one. */
  idempotencyKey: string | null;
  /** Headers to add to the response (Set-Cookie, Retry-After, quota headers). */
  resHeaders: Headers;
  /** A procedure may override the route's success status (an idempotent create answering 200). */
  status?: number;
}

export interface Context extends Deps {
  req: RequestInfo;
  /** The caller, when the transport authenticated it before reading the body (the REST layer). */
  principal?: Principal;
}

export function createContext(deps: Deps, req: RequestInfo): Context {
  return { ...deps, req };
}
