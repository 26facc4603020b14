import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import {
  BILLING_PERIODS,
  type Billing,
  CHECKOUT_PLANS,
  type CheckoutPlan,
  DEFAULT_MONTHLY_PRICES,
  type MonthlyPrices,
} from './plans';

/** Lookup key of a Stripe price: `basic_monthly`, `pro_annual`, … */
export type PriceKey = `${Lowercase<CheckoutPlan>}_${Billing}`;
export const PRICE_KEYS: PriceKey[] = CHECKOUT_PLANS.flatMap((plan) =>
  BILLING_PERIODS.map((billing) => `${plan.toLowerCase()}_${billing}` as PriceKey),
);

export interface BillingProviderOptions<D extends OfflineStripe = OfflineStripe> {
  /** Public origin: checkout return URLs and the offline provider's hosted pages. */
  appUrl: string;
  /** Real Stripe when set (with `webhookSecret`); the offline provider otherwise. */
  secretKey?: string;
  /** Required with `secretKey`; the offline provider makes up a random one when absent. */
  webhookSecret?: string;
  /**
   * With `secretKey`: another Stripe API host (`http://127.0.0.1:12111` for stripe-mock, an egress
   * proxy); an origin only, since the SDK has no base path. Default: api.stripe.com.
   */
  apiUrl?: string;
  /** Price ids by lookup key; missing ones are found with `prices.list({lookup_keys})`. */
  priceIds?: Partial<Record<PriceKey, string>>;
  monthlyPrices?: MonthlyPrices;
  /** Offline only: whether /__dev/billing/* pages are mounted (never in production). */
  devPages?: boolean;
  /**
   * The offline provider to run without `secretKey`: `FakeStripe` from `@folio/billing-dev`, passed
   * in so that production never loads it.
   */
  offline?: new (
    opts: OfflineStripeOptions,
  ) => D;
}

export interface OfflineStripeOptions {
  appUrl: string;
  webhookSecret: string;
  monthlyPrices: MonthlyPrices;
}

/**
 * What the provider needs of the offline Stripe: the `fetch` the SDK's http client calls. The dev
 * pages and tests that drive it further know it as `FakeStripe` (@folio/billing-dev).
 */
export interface OfflineStripe {
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
}

export interface PlanPrice {
  plan: CheckoutPlan;
  billing: Billing;
}

/**
 * The payment provider as the rest of the service sees it: the real `stripe` SDK in every mode,
 * talking to Stripe, or in process to the offline fake (`dev`).
 */
export interface BillingProvider<D extends OfflineStripe = OfflineStripe> {
  kind: 'stripe' | 'dev';
  stripe: Stripe;
  webhookSecret: string;
  appUrl: string;
  monthlyPrices: MonthlyPrices;
  /** The Stripe price id that sells a plan for a billing period. */
  priceId(plan: CheckoutPlan, billing: Billing): Promise<string>;
  /** Which plan and period a Stripe price sells, if it is one of ours. */
  planOfPrice(price: Stripe.Price | string): Promise<PlanPrice | undefined>;
  /** The offline provider, when it is the one in use. */
  dev?: D;
  /** Whether the offline provider's hosted pages are to be mounted. */
  devPages: boolean;
}

function keyOf(lookupKey: string | null | undefined): PlanPrice | undefined {
  const m = /^(basic|pro)_(monthly|annual)$/.exec(lookupKey ?? '');
  return m ? { plan: m[1]!.toUpperCase() as CheckoutPlan, billing: m[2] as Billing } : undefined;
}

/** `host`, `port` and `protocol` of the SDK for an API origin such as `http://127.0.0.1:12111`. */
function apiHost(apiUrl: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiUrl);
  const protocol = url.protocol.slice(0, -1);
  if (protocol !== 'http' && protocol !== 'https') {
    throw new Error(`STRIPE_API_URL must be an http(s) URL, not ${url.protocol}`);
  }
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new Error('STRIPE_API_URL must be an origin only (scheme, host, port): the SDK has no base path');
  }
  return {
    // `[::1]` is a URL's spelling; the socket wants the bare address.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

export function createBillingProvider<D extends OfflineStripe = OfflineStripe>(
  opts: BillingProviderOptions<D>,
): BillingProvider<D> {
  const appUrl = opts.appUrl.replace(/\/$/, '');
  const monthlyPrices = opts.monthlyPrices ?? DEFAULT_MONTHLY_PRICES;
  if (opts.secretKey && !opts.webhookSecret) {
    throw new Error('STRIPE_SECRET_KEY needs STRIPE_WEBHOOK_SECRET (and the other way round)');
  }
  let stripe: Stripe;
  let dev: D | undefined;
  let webhookSecret: string;
  if (opts.secretKey && opts.webhookSecret) {
    stripe = new Stripe(opts.secretKey, {
      maxNetworkRetries: 2,
      telemetry: false,
      timeout: 20_000,
      ...(opts.apiUrl ? apiHost(opts.apiUrl) : {}),
    });
    webhookSecret = opts.webhookSecret;
  } else {
    // Random per process: a secret written in the source would let anyone sign events.
    webhookSecret = opts.webhookSecret ?? `whsec_dev_${randomBytes(24).toString('hex')}`;
    if (!opts.offline) {
      throw new Error('No STRIPE_SECRET_KEY: pass the offline provider (FakeStripe from @folio/billing-dev)');
    }
    dev = new opts.offline({ appUrl, webhookSecret, monthlyPrices });
    stripe = new Stripe('sk_test_folio_dev_provider', {
      httpClient: Stripe.createFetchHttpClient(dev.fetch),
      host: 'dev-billing.invalid',
      protocol: 'http',
      maxNetworkRetries: 0,
      telemetry: false,
    });
  }

  // Price ids: configured ones, the rest resolved once by lookup key (retried after a failure).
  let table: Promise<Map<string, PlanPrice>> | undefined;
  const priceTable = () => {
    table ??= (async () => {
      const map = new Map<string, PlanPrice>();
      for (const key of PRICE_KEYS) {
        const configured = opts.priceIds?.[key];
        if (configured) map.set(configured, keyOf(key)!);
      }
      const missing = PRICE_KEYS.filter((k) => !opts.priceIds?.[k]);
      if (missing.length) {
        const found = await stripe.prices.list({ lookup_keys: missing, active: true, limit: 100 });
        for (const price of found.data) {
          const pp = keyOf(price.lookup_key);
          if (pp) map.set(price.id, pp);
        }
      }
      return map;
    })().catch((err) => {
      table = undefined;
      throw err;
    });
    return table;
  };

  return {
    kind: dev ? 'dev' : 'stripe',
    stripe,
    webhookSecret,
    appUrl,
    monthlyPrices,
    dev,
    devPages: Boolean(dev && opts.devPages !== false),
    async priceId(plan, billing) {
      for (const [id, pp] of await priceTable()) if (pp.plan === plan && pp.billing === billing) return id;
      throw new Error(
        `No Stripe price for ${plan} ${billing}: set its id or the lookup key ${plan.toLowerCase()}_${billing}`,
      );
    },
    async planOfPrice(price) {
      const id = typeof price === 'string' ? price : price.id;
      return (
        (await priceTable()).get(id) ?? (typeof price === 'string' ? undefined : keyOf(price.lookup_key))
      );
    },
  };
}
