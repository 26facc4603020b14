import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EfirmaKeyring } from '../efirma/keyring';

// Envelope encryption of a stored secret (an e.firma, docs/sat-sync.md#efirma; a webhook signing
// secret, docs/webhooks.md): AES-256-GCM under a random data key per record, that key wrapped (also
// AES-256-GCM) by the keyring's master key. Each encryption takes a fresh 96-bit nonce; the
// additional data binds both ciphertexts to the record (`bound`: e.g. its profile and id) and the key
// version, so a ciphertext copied to another row does not open.

const NONCE = 12;
const TAG = 16;

export interface Sealed {
  keyVersion: number;
  wrappedKey: string;
  payload: string;
}

/** What a record's ciphertexts are bound to: its parts and the key version, one a line. */
const aadOf = (bound: readonly string[], keyVersion: number) =>
  Buffer.from([...bound, keyVersion].join('\n'), 'utf8');

function encrypt(key: Buffer, plain: Buffer, aad: Buffer): string {
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
}

function decrypt(key: Buffer, sealed: string, aad: Buffer): Buffer {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE));
  decipher.setAAD(aad);
  decipher.setAuthTag(raw.subarray(raw.length - TAG));
  return Buffer.concat([decipher.update(raw.subarray(NONCE, raw.length - TAG)), decipher.final()]);
}

export function seal(keyring: EfirmaKeyring, bound: readonly string[], plain: Buffer): Sealed {
  const keyVersion = keyring.current;
  const master = keyring.keys.get(keyVersion) as Buffer;
  const aad = aadOf(bound, keyVersion);
  const dataKey = randomBytes(32);
  try {
    return { keyVersion, wrappedKey: encrypt(master, dataKey, aad), payload: encrypt(dataKey, plain, aad) };
  } finally {
    dataKey.fill(0);
  }
}

export function unseal(keyring: EfirmaKeyring, bound: readonly string[], sealed: Sealed): Buffer {
  const master = keyring.keys.get(sealed.keyVersion);
  if (!master) throw new Error(`master key version ${sealed.keyVersion} is not configured`);
  const aad = aadOf(bound, sealed.keyVersion);
  const dataKey = decrypt(master, sealed.wrappedKey, aad);
  try {
    return decrypt(dataKey, sealed.payload, aad);
  } finally {
    dataKey.fill(0);
  }
}
