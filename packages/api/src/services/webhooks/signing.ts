import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

// Standard Webhooks signatures, made by its reference library so they are exactly what receivers'
// libraries check: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes.

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the spec asks for 24 to 64). */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The headers of one attempt. `secrets`: the current one, then (during a rotation's grace period)
 * the previous one; each signs, and the signatures go space-separated in one header.
 */
export function signedHeaders(secrets: string[], id: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' '),
  };
}
