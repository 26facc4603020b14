import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import {
  backfillSearchDictionary,
  backfillSubstitutions,
  backfillTaxDetail,
  createAppJobs,
  deriveDevKeyring,
  keepMeaningModelIn,
  mailSatAlerts,
  SECRET_LINK_MAILS,
} from '@folio/api';
import { createBillingProvider } from '@folio/billing';
import { createMailSender } from '@folio/email';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { createsPgliteDir, fromBase, openServerDatabase, prepareInChild } from './database';
import { loadEnv } from './env';
import { answerClientErrors } from './http/client-errors';
import type { AppDeps } from './http/types';
import { createLogger } from './logger';
import { routeWarnings } from './warnings';

const env = loadEnv();
const log = createLogger(env.LOG_LEVEL);
routeWarnings(log);
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
// A first start on an empty PGlite directory prepares it in a child process (database.ts).
if (createsPgliteDir(env)) await prepareInChild();
const { db, catalog } = await openServerDatabase(env, log);
// A catalog just imported into PostgreSQL leaves the meaning model's file stale: it is rebuilt in a
// child too, so that no search builds it in the serving process (seconds, and its garbage).
if (db.kind === 'postgres' && (catalog.kind === 'bundled' || catalog.kind === 'csv')) await prepareInChild();
// The search by meaning's model is read from SAT_MEANING_MODEL_FILE (written by `pnpm
// catalog:import` and by a first start's child), or built and written there, by the first search
// that needs it, not here: a server that never searches by meaning does not hold it
// (docs/benchmarks.md#memory).
keepMeaningModelIn(db.db, fromBase(env.SAT_MEANING_MODEL_FILE));

// CFDI stored before the tax detail existed get it from their XML, in the background: a large
// backlog must not hold the server's start (docs/cfdi.md#taxes-by-rate).
const stopBackfill = new AbortController();
const backfill = backfillTaxDetail(db.db, { signal: stopBackfill.signal }).then(
  (done) => {
    if (done.filled || done.unreadable) log.info(done, 'CFDI tax detail back-filled');
  },
  (err: unknown) => log.error({ err }, 'CFDI tax detail back-fill stopped; it resumes at the next start'),
);
// Substitutions (04) stored before the SAT status existed presume their originals cancelled, as an
// import now does (docs/sat-status.md); set-based and quick, also in the background.
const substitutions = backfillSubstitutions(db.db).then(
  (n) => {
    if (n) log.info({ substitutes: n }, 'CFDI substitutions back-filled');
  },
  (err: unknown) => log.error({ err }, 'CFDI substitution back-fill stopped; it resumes at the next start'),
);
// Accounts with CFDI from before the search dictionary search by the search index until it holds
// them (docs/design.md#search); in the background, stopped with the server, resumed at the next start.
const searchDictionary = backfillSearchDictionary(db.db, { signal: stopBackfill.signal }).then(
  (accounts) => {
    if (accounts) log.info({ accounts }, 'search dictionary back-filled');
  },
  (err: unknown) => log.error({ err }, 'search dictionary back-fill stopped; it resumes at the next start'),
);

// Work for later (mail and webhook deliveries; SAT syncs next) runs as jobs on the database.
const jobs = createAppJobs({
  handle: db,
  sender: createMailSender({
    db: db.db,
    resendApiKey: env.RESEND_API_KEY,
    from: env.EMAIL_FROM,
    log,
    secretLinks: SECRET_LINK_MAILS,
  }),
  log,
  webhooks: {
    // Webhook signing secrets are sealed like the e.firmas, under the same master keys.
    keyring: env.EFIRMA_KEYRING ?? deriveDevKeyring(env.AUTH_SECRET),
    production: env.NODE_ENV === 'production',
  },
  // The sync job's services need the app's dependencies, built below; a job due before then retries.
  sync: {
    deps: () => {
      if (!appDeps) throw new Error('the app is still starting');
      return appDeps;
    },
  },
});
await jobs.start();
log.info({}, 'job queue started');
// A newer catalog (or a run cut short) may have left alerts on favorite codes: one mail per user.
const alertMails = await mailSatAlerts({ db: db.db, kickEmail: jobs.mail.kick });
if (alertMails.mails) log.info(alertMails, 'SAT catalog alerts: mails queued');

const billing = createBillingProvider({
  appUrl: env.APP_URL,
  // Loaded only when it will run: without Stripe keys (development, tests).
  offline: env.STRIPE_SECRET_KEY ? undefined : (await import('@folio/billing-dev')).FakeStripe,
  secretKey: env.STRIPE_SECRET_KEY,
  webhookSecret: env.STRIPE_WEBHOOK_SECRET,
  apiUrl: env.STRIPE_API_URL,
  priceIds: {
    basic_monthly: env.STRIPE_PRICE_BASIC_MONTHLY,
    basic_annual: env.STRIPE_PRICE_BASIC_ANNUAL,
    pro_monthly: env.STRIPE_PRICE_PRO_MONTHLY,
    pro_annual: env.STRIPE_PRICE_PRO_ANNUAL,
  },
  monthlyPrices: {
    FREE: 0,
    BASIC: env.PLAN_PRICE_BASIC,
    PRO: env.PLAN_PRICE_PRO,
    ENTERPRISE: env.PLAN_PRICE_ENTERPRISE,
  },
  devPages: env.NODE_ENV !== 'production',
});
if (billing.kind === 'dev') {
  log.info(
    { pages: `${env.APP_URL}/__dev/billing/*` },
    'billing: STRIPE_SECRET_KEY not set; using the offline dev provider (state in memory)',
  );
}
if (!env.EFIRMA_KEYRING) {
  log.warn(
    {},
    'e.firma: EFIRMA_ENCRYPTION_KEY not set; stored e.firmas use a key derived from AUTH_SECRET (development only)',
  );
}
if (billing.kind === 'dev' && env.STRIPE_API_URL) {
  log.warn({}, 'billing: STRIPE_API_URL is ignored without STRIPE_SECRET_KEY');
}

let appDeps: AppDeps | undefined;
appDeps = {
  db: db.db,
  dbKind: db.kind,
  databaseUrl: db.databaseUrl,
  ping: db.ping,
  billing,
  config: {
    authSecret: env.AUTH_SECRET,
    sessionTtlMs: env.SESSION_TTL_DAYS * 86_400_000,
    sessionCacheMs: env.SESSION_CACHE_MS,
    appUrl: env.APP_URL,
    secureCookies: env.NODE_ENV === 'production' || env.APP_URL.startsWith('https:'),
    supportEmail: env.SUPPORT_EMAIL,
    pdf: {
      concurrency: env.PDF_WORKERS,
      queue: env.PDF_QUEUE,
      timeoutMs: env.PDF_TIMEOUT_S && env.PDF_TIMEOUT_S * 1000,
      memoryMb: env.PDF_WORKER_MEMORY_MB,
    },
    reportWorkers: { memoryMb: env.REPORT_WORKER_MEMORY_MB },
    efirmaKeyring: env.EFIRMA_KEYRING,
    sat: {
      // The simulator is this server's own /__dev/sat (env.ts refuses it in production).
      target: env.SAT_SERVICE === 'sat' ? { kind: 'sat' } : { kind: 'simulator', origin: env.APP_URL },
      refuseTestCertificates: env.NODE_ENV === 'production',
      authenticateOnUpload: env.NODE_ENV === 'production',
    },
    production: env.NODE_ENV === 'production',
  },
  kickEmail: jobs.mail.kick,
  log,
  trustProxy: env.TRUST_PROXY,
  devSurfaces: env.NODE_ENV !== 'production' && !env.RESEND_API_KEY,
  hsts: env.NODE_ENV === 'production',
  version,
  jobs: jobs.queue,
};
const app = createApp(appDeps);

/** How long an idle keep-alive connection is kept open (below). */
const KEEP_ALIVE_MS = 65_000;

const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
  log.info(
    { host: env.HOST, port: info.port, url: env.APP_URL, docs: `${env.APP_URL}/api/docs` },
    'Folio API listening',
  );
  if (env.HOST_DEFAULTED)
    log.info(
      { host: env.HOST },
      'HOST not set: only this machine can connect; set HOST=0.0.0.0 to listen on the network',
    );
});
answerClientErrors(server as Server);
// An idle keep-alive connection is closed by whoever times out first; if that is the server, a
// request a client sends down it at that moment meets a reset (ECONNRESET). Node's own agent
// ignores the server's `Keep-Alive: timeout` hint unless given a timeout, and proxies keep idle
// upstream connections about 60 s (an AWS load balancer, nginx's `keepalive_timeout`): the server
// waits longer than they do, so they close first (Node's default is 5 s).
(server as Server).keepAliveTimeout = KEEP_ALIVE_MS;

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000).unref();
  await new Promise<void>((done) => server.close(() => done()));
  await jobs.stop();
  stopBackfill.abort();
  await backfill;
  await substitutions;
  await searchDictionary;
  await db.close();
  clearTimeout(force);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
