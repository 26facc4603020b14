import { DEFAULT_MEANING_MODEL_FILE, parseEfirmaKeys } from '@folio/api';
import { createEnv } from '@t3-oss/env-core';
import { z } from 'zod';

const DEV_AUTH_SECRET = 'folio-dev-secret-change-me-0123456789abcdef';
const DEV_SUPPORT_EMAIL = 'soporte@folio.local';

/** Every setting the server reads; see .env.example. Invalid values stop start-up with the list. */
export function loadEnv(source: Record<string, string | undefined> = process.env) {
  const env = createEnv({
    server: {
      NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
      PORT: z.coerce.number<number>().int().min(0).max(65535).default(3000),
      HOST: z.string().optional(),
      APP_URL: z.url().optional(),
      DATABASE_URL: z.url().optional(),
      PGLITE_DATA_DIR: z.string().default('.data/pglite'),
      DB_POOL_MAX: z.coerce.number<number>().int().min(1).max(100).default(10),
      AUTH_SECRET: z.string().min(32).optional(),
      SESSION_TTL_DAYS: z.coerce.number<number>().positive().max(90).default(7),
      // How long this process trusts a session it read (0: read it on every request); docs/design.md.
      SESSION_CACHE_MS: z.coerce.number<number>().int().min(0).max(10_000).default(2000),
      SAT_CATALOG_CSV: z.string().optional(),
      SAT_MEANING_MODEL_FILE: z.string().default(DEFAULT_MEANING_MODEL_FILE),
      RESEND_API_KEY: z.string().optional(),
      EMAIL_FROM: z.string().default('Folio <no-reply@folio.local>'),
      SUPPORT_EMAIL: z.email().optional(),
      LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
      STRIPE_SECRET_KEY: z
        .string()
        .regex(/^[sr]k_/, 'must be a Stripe secret (sk_…) or restricted (rk_…) key')
        .optional(),
      STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
      STRIPE_API_URL: z.url().optional(),
      STRIPE_PRICE_BASIC_MONTHLY: z.string().startsWith('price_').optional(),
      STRIPE_PRICE_BASIC_ANNUAL: z.string().startsWith('price_').optional(),
      STRIPE_PRICE_PRO_MONTHLY: z.string().startsWith('price_').optional(),
      STRIPE_PRICE_PRO_ANNUAL: z.string().startsWith('price_').optional(),
      PLAN_PRICE_BASIC: z.coerce.number<number>().nonnegative().default(299),
      PLAN_PRICE_PRO: z.coerce.number<number>().nonnegative().default(599),
      PLAN_PRICE_ENTERPRISE: z.coerce.number<number>().nonnegative().default(1999),
      PDF_WORKERS: z.coerce.number<number>().int().min(1).max(32).optional(),
      PDF_QUEUE: z.coerce.number<number>().int().min(0).max(1000).optional(),
      PDF_TIMEOUT_S: z.coerce.number<number>().positive().max(600).optional(),
      PDF_WORKER_MEMORY_MB: z.coerce.number<number>().int().min(32).max(8192).optional(),
      REPORT_WORKER_MEMORY_MB: z.coerce.number<number>().int().min(32).max(8192).optional(),
      // `version:base64(32 bytes)[,…]`: the master keys wrapping stored e.firmas (docs/sat-sync.md).
      EFIRMA_ENCRYPTION_KEY: z.string().optional(),
      // Where the SAT clients talk: SAT itself, or the simulator under /__dev/sat (never in production).
      SAT_SERVICE: z.enum(['sat', 'simulator']).optional(),
      TRUST_PROXY: z
        .enum(['true', 'false'])
        .default('false')
        .transform((v) => v === 'true'),
    },
    runtimeEnv: source,
    emptyStringAsUndefined: true,
  });
  // Real Stripe needs both: without the webhook secret no subscription change would ever arrive.
  if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_WEBHOOK_SECRET)) {
    throw new Error(
      'Invalid environment variables: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together or not at all',
    );
  }
  if (env.NODE_ENV === 'production') {
    // A dev secret would let anyone mint tokens; without Resend, links (secrets) would only reach the
    // log; without Stripe, checkout would silently use the offline dev provider and never charge;
    // without SUPPORT_EMAIL, support requests would go to an address nobody reads.
    const missing = [
      !env.AUTH_SECRET && 'AUTH_SECRET (32+ characters)',
      !env.RESEND_API_KEY && 'RESEND_API_KEY',
      !env.STRIPE_SECRET_KEY && 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
      // Without it stored e.firmas would be wrapped by a key derived from AUTH_SECRET.
      !env.EFIRMA_ENCRYPTION_KEY && 'EFIRMA_ENCRYPTION_KEY',
      !env.SUPPORT_EMAIL && 'SUPPORT_EMAIL',
    ];
    const names = missing.filter(Boolean);
    if (names.length)
      throw new Error(`Invalid environment variables: ${names.join(', ')} required in production`);
    if (env.SAT_SERVICE === 'simulator')
      throw new Error('Invalid environment variables: SAT_SERVICE=simulator is refused in production');
  }
  // Read now so a malformed key stops start-up rather than the first e.firma upload.
  const efirmaKeyring = env.EFIRMA_ENCRYPTION_KEY ? parseEfirmaKeys(env.EFIRMA_ENCRYPTION_KEY) : undefined;
  const appUrl = env.APP_URL ?? `http://localhost:${env.PORT}`;
  return {
    ...env,
    APP_URL: appUrl,
    AUTH_SECRET: env.AUTH_SECRET ?? DEV_AUTH_SECRET,
    SUPPORT_EMAIL: env.SUPPORT_EMAIL ?? DEV_SUPPORT_EMAIL,
    // Loopback unless asked: development serves /__dev pages that show every verification link.
    HOST: env.HOST ?? '127.0.0.1',
    HOST_DEFAULTED: env.HOST === undefined,
    EFIRMA_KEYRING: efirmaKeyring,
    SAT_SERVICE: env.SAT_SERVICE ?? (env.NODE_ENV === 'production' ? 'sat' : 'simulator'),
  };
}

export type Env = ReturnType<typeof loadEnv>;
