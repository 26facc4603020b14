import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EfirmaKeyring } from '../efirma/keyring';

// Envelope encryption of a stored secret (an e.firma, docs/sat-sync.md#efirma; a webhook signing
// secret, docs/webhooks.md): AES-256-GCM under a random data key per record, that key wrapped (also
// AES-256-GCM) by the keyring's master key. Each encryption takes a fresh 96-bit nonce. The additional
// data binds the wrapped key to its record (`bound`: e.g. its profile and id) and key version, and the
// payload to its record, so a ciphertext copied to another row does not open; a rotation re-wraps
// only the data key (the payload stays as it is).

const NONCE = 12;
const TAG = 16;

export interface Sealed {
  keyVersion: number;
  wrappedKey: string;
  payload: string;
}

/** What a record's ciphertexts are bound to: its parts (and the key version for the key), one a line. */
const keyAad = (bound: readonly string[], keyVersion: number) =>
  Buffer.from([...bound, keyVersion].join('\n'), 'utf8');
const payloadAad = (bound: readonly string[]) => Buffer.from(bound.join('\n'), 'utf8');

function masterKey(keyring: EfirmaKeyring, version: number): Buffer {
  const key = keyring.keys.get(version);
  if (!key) throw new Error(`master key version ${version} is not configured`);
  return key;
}

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

const wrap = (keyring: EfirmaKeyring, bound: readonly string[], dataKey: Buffer) => {
  const keyVersion = keyring.current;
  return {
    keyVersion,
    wrappedKey: encrypt(masterKey(keyring, keyVersion), dataKey, keyAad(bound, keyVersion)),
  };
};

const unwrap = (keyring: EfirmaKeyring, bound: readonly string[], sealed: Omit<Sealed, 'payload'>) =>
  decrypt(masterKey(keyring, sealed.keyVersion), sealed.wrappedKey, keyAad(bound, sealed.keyVersion));

export function seal(keyring: EfirmaKeyring, bound: readonly string[], plain: Buffer): Sealed {
  const dataKey = randomBytes(32);
  try {
    return { ...wrap(keyring, bound, dataKey), payload: encrypt(dataKey, plain, payloadAad(bound)) };
  } finally {
    dataKey.fill(0);
  }
}

export function unseal(keyring: EfirmaKeyring, bound: readonly string[], sealed: Sealed): Buffer {
  const dataKey = unwrap(keyring, bound, sealed);
  try {
    return decrypt(dataKey, sealed.payload, payloadAad(bound));
  } finally {
    dataKey.fill(0);
  }
}

/** Rotation: the record's data key wrapped again by the keyring's current master key. */
export function rewrap(
  keyring: EfirmaKeyring,
  bound: readonly string[],
  sealed: Omit<Sealed, 'payload'>,
): Omit<Sealed, 'payload'> {
  const dataKey = unwrap(keyring, bound, sealed);
  try {
    return wrap(keyring, bound, dataKey);
  } finally {
    dataKey.fill(0);
  }
}
