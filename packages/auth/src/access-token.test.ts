import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { signAccessToken, verifyAccessToken } from './access-token';

const SECRET = 'test-secret-0123456789abcdef0123456789abcdef';
const claims = { userId: 'user-123', sessionToken: 'sessiontokenabc234' };
const inOneHour = () => new Date(Date.now() + 3600_000);

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const decodePart = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe('signAccessToken / verifyAccessToken', () => {
  it('verify returns the claims of a token it signed', async () => {
    const token = await signAccessToken(SECRET, claims, inOneHour());
    expect(await verifyAccessToken(SECRET, token)).toEqual(claims);
  });

  it('signs an HS256 JWT for issuer folio / audience folio-api with exp from expiresAt', async () => {
    const expiresAt = inOneHour();
    const token = await signAccessToken(SECRET, claims, expiresAt);
    const [header, payload] = token.split('.');
    expect(decodePart(header!)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(decodePart(payload!)).toMatchObject({
      sub: claims.userId,
      sid: claims.sessionToken,
      iss: 'folio',
      aud: 'folio-api',
      exp: Math.floor(expiresAt.getTime() / 1000),
    });
  });

  it('rejects (null) a token signed with another secret', async () => {
    const token = await signAccessToken('another-secret-0123456789abcdef0123456789', claims, inOneHour());
    expect(await verifyAccessToken(SECRET, token)).toBeNull();
  });

  it('rejects (null) a token whose payload was altered after signing', async () => {
    const token = await signAccessToken(SECRET, claims, inOneHour());
    const [header, payload, signature] = token.split('.');
    const altered = b64url({ ...decodePart(payload!), sub: 'someone-else' });
    expect(await verifyAccessToken(SECRET, `${header}.${altered}.${signature}`)).toBeNull();
  });

  it('rejects (null) a token whose signature was altered', async () => {
    const token = await signAccessToken(SECRET, claims, inOneHour());
    const [header, payload, signature] = token.split('.');
    const flipped = (signature![0] === 'A' ? 'B' : 'A') + signature!.slice(1);
    expect(await verifyAccessToken(SECRET, `${header}.${payload}.${flipped}`)).toBeNull();
  });

  it('refuses a token it already verified once that token expires', async () => {
    const token = await signAccessToken(SECRET, claims, new Date(Date.now() + 2000));
    expect(await verifyAccessToken(SECRET, token)).toEqual(claims);
    vi.setSystemTime(Date.now() + 3000);
    try {
      expect(await verifyAccessToken(SECRET, token)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a token verified under one secret is still refused under another', async () => {
    const token = await signAccessToken(SECRET, claims, inOneHour());
    expect(await verifyAccessToken(SECRET, token)).toEqual(claims);
    expect(await verifyAccessToken('another-secret-0123456789abcdef0123456789', token)).toBeNull();
  });

  it('rejects (null) an expired token', async () => {
    const token = await signAccessToken(SECRET, claims, new Date(Date.now() - 60_000));
    expect(await verifyAccessToken(SECRET, token)).toBeNull();
  });

  it.each([
    ['empty string', ''],
    ['plain text', 'not-a-token'],
    ['three dots', '...'],
    ['three junk segments', 'aaa.bbb.ccc'],
    ['non-JSON header', `${Buffer.from('{oops').toString('base64url')}.${b64url({ sub: 'x' })}.c2ln`],
    ['two segments', `${b64url({ alg: 'HS256' })}.${b64url({ sub: 'x' })}`],
    ['JSON payload that is an array', `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url([1])}.c2ln`],
  ])('rejects (null) garbage: %s', async (_, token) => {
    expect(await verifyAccessToken(SECRET, token)).toBeNull();
  });

  it('rejects (null) an unsigned alg "none" token carrying valid-looking claims', async () => {
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      sub: claims.userId,
      sid: claims.sessionToken,
      iss: 'folio',
      aud: 'folio-api',
      iat: now,
      exp: now + 3600,
    };
    const header = b64url({ alg: 'none', typ: 'JWT' });
    expect(await verifyAccessToken(SECRET, `${header}.${b64url(payload)}.`)).toBeNull();
    // Same, with the signature of a genuine token pasted on.
    const genuine = (await signAccessToken(SECRET, claims, inOneHour())).split('.')[2];
    expect(await verifyAccessToken(SECRET, `${header}.${b64url(payload)}.${genuine}`)).toBeNull();
  });

  it('rejects (null) a correctly signed token with another algorithm (HS512)', async () => {
    const token = await new SignJWT({ sid: claims.sessionToken })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(claims.userId)
      .setIssuer('folio')
      .setAudience('folio-api')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await verifyAccessToken(SECRET, token)).toBeNull();
  });

  it.each([
    ['another issuer', { iss: 'evil', aud: 'folio-api' }],
    ['another audience', { iss: 'folio', aud: 'other-api' }],
  ])('rejects (null) a correctly signed token for %s', async (_, { iss, aud }) => {
    const token = await new SignJWT({ sid: claims.sessionToken })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuer(iss)
      .setAudience(aud)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await verifyAccessToken(SECRET, token)).toBeNull();
  });

  it.each([
    ['no sid', { sub: claims.userId }],
    ['no sub', { sid: claims.sessionToken }],
    ['a numeric sid', { sub: claims.userId, sid: 42 }],
  ])('rejects (null) a correctly signed token with %s', async (_, body) => {
    const token = await new SignJWT(body)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('folio')
      .setAudience('folio-api')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await verifyAccessToken(SECRET, token)).toBeNull();
  });
});
