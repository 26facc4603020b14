import { hkdfSync } from 'node:crypto';

/**
 * The versioned master keys that wrap each e.firma's data key (EFIRMA_ENCRYPTION_KEY). New records
 * use `current`; older versions stay to unwrap records not yet re-wrapped, so a rotation adds a
 * version and re-wraps record keys (a 32-byte key each; nothing else changes).
 */
export interface EfirmaKeyring {
  current: number;
  keys: ReadonlyMap<number, Buffer>;
}

const ENTRY = /^v?(\d{1,6}):([A-Za-z0-9+/=_-]+)$/;

/**
 * Reads `1:<base64 of 32 bytes>[,2:<base64>…]`; the highest version is the current one. A single
 * value without a version is version 1. Throws on anything else (start-up stops with the reason).
 */
export function parseEfirmaKeys(value: string): EfirmaKeyring {
  const keys = new Map<number, Buffer>();
  const entries = value.includes(':') ? value.split(',') : [`1:${value}`];
  for (const entry of entries) {
    const m = ENTRY.exec(entry.trim());
    if (!m) throw new Error('EFIRMA_ENCRYPTION_KEY: expected version:base64key[,version:base64key…]');
    const key = Buffer.from(m[2] as string, 'base64');
    if (key.length !== 32)
      throw new Error(`EFIRMA_ENCRYPTION_KEY: version ${m[1]} is not 32 bytes of base64`);
    keys.set(Number(m[1]), key);
  }
  return { current: Math.max(...keys.keys()), keys };
}

/** Development and tests only: a key derived from the auth secret (the server logs that it did). */
export function deriveDevKeyring(secret: string): EfirmaKeyring {
  const key = Buffer.from(hkdfSync('sha256', secret, 'folio', 'efirma development master key', 32));
  return { current: 1, keys: new Map([[1, key]]) };
}
