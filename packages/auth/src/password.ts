import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP minimum (19 MiB, t=2, p=1); its cost per check: docs/benchmarks.md.
const PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies `password` against `stored`; with no stored hash (unknown email) it still runs one
 * verification against a fixed hash so both paths cost the same time.
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    dummyHash ??= hashPassword('folio-timing-equaliser');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
