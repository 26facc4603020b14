import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { hashToken } from './tokens';

export const API_KEY_PREFIX = 'folio_';
/** How much of a key is stored and shown to recognise it: `folio_` and 6 characters of the secret. */
export const API_KEY_SHOWN_CHARS = 12;

/**
 * A new API key: 32 random bytes (256 bits; the 30 shown in the prefix leave 226 secret), what is
 * stored to find it (its SHA-256, enough for a high-entropy secret) and the prefix shown in listings.
 */
export function generateApiKey(): { key: string; hash: string; prefix: string } {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  const key = API_KEY_PREFIX + encodeBase32LowerCaseNoPadding(bytes);
  return { key, hash: hashToken(key), prefix: key.slice(0, API_KEY_SHOWN_CHARS) };
}

/** Whether a bearer credential is an API key rather than an access token (JWTs never start so). */
export const isApiKey = (token: string | null): token is string => !!token?.startsWith(API_KEY_PREFIX);
