import { isIP } from 'node:net';
import { CHECKOUT_PLANS, PLAN_LIMITS } from '@folio/billing';
import { invalidField } from '../../errors';
import { isRefusedAddress } from './ssrf';

// The rules of outgoing webhooks (integrations §2, docs/webhooks.md).

/** Endpoints one user may hold. */
export const MAX_ENDPOINTS = 10;
/** A rotated secret may keep signing beside the new one for up to this long. */
export const MAX_GRACE_HOURS = 24;
/** A receiver has this long to answer (production value; tests pass their own to the sender). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Failing this long without a success turns an endpoint off and mails its owner. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;
/** Waits after the 1st, 2nd… failed attempt; after the last the delivery is failed (7 attempts in all). */
export const RETRY_DELAYS_S = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600] as const;
/** A Retry-After beyond this is not waited for longer. */
const MAX_RETRY_AFTER_S = 24 * 3600;

const plansWithApiAccess = CHECKOUT_PLANS.filter((p) => PLAN_LIMITS[p].apiAccess).join(' or ');
export const WEBHOOKS_REQUIRE = `Webhooks require the ${plansWithApiAccess} plan`;

const LOOPBACK_NAMES = new Set(['localhost']);

/**
 * A URL an endpoint may have: https in production; outside production also http to loopback (a
 * receiver on the developer's machine). In production an IP literal must be public; names are
 * checked again at each delivery, after DNS (ssrf.ts). Throws a 400 naming `url`.
 */
export function checkEndpointUrl(raw: string, production: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidField('url', 'url is not a valid absolute URL', 'webhook_url_invalid');
  }
  if (url.username || url.password)
    throw invalidField('url', 'url must not carry credentials', 'webhook_url_invalid');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = LOOPBACK_NAMES.has(host) || (isIP(host) !== 0 && /^(127\.|::1$)/.test(host));
  if (url.protocol === 'https:') {
    if (production && isIP(host) && isRefusedAddress(host))
      throw invalidField(
        'url',
        'url must not point to a private, loopback or link-local address',
        'webhook_url_invalid',
      );
    return url.toString();
  }
  if (url.protocol === 'http:' && loopback && !production) return url.toString();
  throw invalidField(
    'url',
    production ? 'url must be https://' : 'url must be https://, or http:// to localhost outside production',
    'webhook_url_invalid',
  );
}

/** Seconds to wait after the `attempts`-th failure (jittered ±10%), or null when none is left. */
export function retryDelaySeconds(
  attempts: number,
  retryAfter: number | null,
  random = Math.random,
): number | null {
  const base = RETRY_DELAYS_S[attempts - 1];
  if (base === undefined) return null;
  const jittered = base * (0.9 + 0.2 * random());
  return Math.max(jittered, Math.min(retryAfter ?? 0, MAX_RETRY_AFTER_S));
}

/** A Retry-After header in seconds (delta or HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, (at - now.getTime()) / 1000);
}
