import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EfirmaKeyring } from './keyring';

// Envelope encryption of an e.firma (docs/sat-sync.md#efirma): AES-256-GCM under a random data key
// per record, that key wrapped (also AES-256-GCM) by the keyring's master key. Each encryption takes
// a fresh 96-bit nonce. The additional data binds the wrapped key to its profile, record and key
// version, and the payload to its profile and record, so a ciphertext copied to another row does not
// open; a rotation re-wraps only the data key (the payload stays as it is).

const NONCE = 12;
const TAG = 16;

export interface Sealed {
  keyVersion: number;
  wrappedKey: string;
  payload: string;
}

const keyAad = (profileId: string, recordId: string, keyVersion: number) =>
  Buffer.from(`${profileId}\n${recordId}\n${keyVersion}`, 'utf8');
const payloadAad = (profileId: string, recordId: string) => Buffer.from(`${profileId}\n${recordId}`, 'utf8');

function masterKey(keyring: EfirmaKeyring, version: number): Buffer {
  const key = keyring.keys.get(version);
  if (!key) throw new Error(`e.firma master key version ${version} is not configured`);
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

export function seal(keyring: EfirmaKeyring, profileId: string, recordId: string, plain: Buffer): Sealed {
  const keyVersion = keyring.current;
  const dataKey = randomBytes(32);
  try {
    return {
      keyVersion,
      wrappedKey: encrypt(masterKey(keyring, keyVersion), dataKey, keyAad(profileId, recordId, keyVersion)),
      payload: encrypt(dataKey, plain, payloadAad(profileId, recordId)),
    };
  } finally {
    dataKey.fill(0);
  }
}

export function unseal(keyring: EfirmaKeyring, profileId: string, recordId: string, sealed: Sealed): Buffer {
  const dataKey = unwrap(keyring, profileId, recordId, sealed);
  try {
    return decrypt(dataKey, sealed.payload, payloadAad(profileId, recordId));
  } finally {
    dataKey.fill(0);
  }
}

const unwrap = (
  keyring: EfirmaKeyring,
  profileId: string,
  recordId: string,
  sealed: Omit<Sealed, 'payload'>,
) =>
  decrypt(
    masterKey(keyring, sealed.keyVersion),
    sealed.wrappedKey,
    keyAad(profileId, recordId, sealed.keyVersion),
  );

/** Rotation: the record's data key wrapped again by the keyring's current master key. */
export function rewrap(
  keyring: EfirmaKeyring,
  profileId: string,
  recordId: string,
  sealed: Omit<Sealed, 'payload'>,
): Omit<Sealed, 'payload'> {
  const dataKey = unwrap(keyring, profileId, recordId, sealed);
  try {
    const keyVersion = keyring.current;
    return {
      keyVersion,
      wrappedKey: encrypt(masterKey(keyring, keyVersion), dataKey, keyAad(profileId, recordId, keyVersion)),
    };
  } finally {
    dataKey.fill(0);
  }
}
