import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password';

const PASSWORD = 'correct horse battery staple';

describe('hashPassword', () => {
  it('produces an argon2id PHC string with the OWASP minimum parameters (m=19456, t=2, p=1)', async () => {
    const hash = await hashPassword(PASSWORD);
    expect(hash.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
    // $argon2id$v=19$params$salt$hash, salt and 32-byte hash in unpadded base64.
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(hash).not.toContain(PASSWORD);
  });

  it('salts: the same password hashes differently each time', async () => {
    expect(await hashPassword(PASSWORD)).not.toBe(await hashPassword(PASSWORD));
  });
});

describe('verifyPassword', () => {
  it('is true for the right password and false for a wrong one', async () => {
    const hash = await hashPassword(PASSWORD);
    expect(await verifyPassword(hash, PASSWORD)).toBe(true);
    expect(await verifyPassword(hash, 'correct horse battery stapl')).toBe(false);
    expect(await verifyPassword(hash, `${PASSWORD} `)).toBe(false);
    expect(await verifyPassword(hash, '')).toBe(false);
  });

  it('handles non-ASCII passwords', async () => {
    const hash = await hashPassword('contraseña-ñandú-🔑');
    expect(await verifyPassword(hash, 'contraseña-ñandú-🔑')).toBe(true);
    expect(await verifyPassword(hash, 'contrasena-nandu-🔑')).toBe(false);
  });

  it('resolves false when there is no stored hash (unknown user), whatever the password', async () => {
    await expect(verifyPassword(null, PASSWORD)).resolves.toBe(false);
    await expect(verifyPassword(null, 'folio-timing-equaliser')).resolves.toBe(false);
  });

  it.each([
    ['empty', ''],
    ['plain text', 'not-a-hash'],
    ['truncated PHC', '$argon2id$v=19$m=19456,t=2,p=1$'],
    ['bad base64', '$argon2id$v=19$m=19456,t=2,p=1$!!!!$????'],
    ['bcrypt', '$2b$10$abcdefghijklmnopqrstuuJ2Yd8W3wFqVqQyY5cR6m6o0i2fGxq0K'],
  ])('resolves false (does not throw) for a malformed stored hash: %s', async (_, stored) => {
    await expect(verifyPassword(stored, PASSWORD)).resolves.toBe(false);
  });
});
