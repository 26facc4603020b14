import { errors, jwtVerify, SignJWT } from 'jose';

const ISSUER = 'folio';
const AUDIENCE = 'folio-api';

export interface AccessTokenClaims {
  userId: string;
  /** The session secret; the database only holds its hash. */
  sessionToken: string;
}

/**
 * The HMAC key, imported once per secret: importing it on every call made verifying a token, which
 * every authenticated request does, markedly dearer (docs/benchmarks.md).
 */
const keys = new Map<string, Promise<CryptoKey>>();
function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    keys.set(secret, key);
  }
  return key;
}

/** HS256 JWT carrying the session; valid only while the session row also is. */
export async function signAccessToken(
  secret: string,
  claims: AccessTokenClaims,
  expiresAt: Date,
): Promise<string> {
  return new SignJWT({ sid: claims.sessionToken })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(await keyOf(secret));
}

/**
 * Tokens this process has verified, by secret, with their claims and expiry: jose checks the HS256
 * signature through WebCrypto, whose per-call overhead was a visible share of a listing request's CPU (docs/benchmarks.md). A
 * token's signature and claims never change, so one check per token is enough; the expiry is
 * checked on every use, and the session behind the token is still looked up on every request.
 */
const verified = new Map<string, Map<string, { claims: AccessTokenClaims; exp: number }>>();
const VERIFIED_MAX = 10_000;

/** Returns the claims of a well-formed, correctly signed, unexpired token; otherwise null. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessTokenClaims | null> {
  let known = verified.get(secret);
  if (!known) {
    known = new Map();
    verified.set(secret, known);
  }
  const hit = known.get(token);
  // jose's rule: expired once the current second reaches `exp`.
  if (hit) return Math.floor(Date.now() / 1000) < hit.exp ? hit.claims : null;
  const checked = await verifySigned(secret, token);
  if (!checked) return null;
  if (known.size >= VERIFIED_MAX) known.delete(known.keys().next().value!);
  known.set(token, checked);
  return checked.claims;
}

async function verifySigned(secret: string, token: string) {
  try {
    const { payload } = await jwtVerify(token, await keyOf(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || payload.exp === undefined)
      return null;
    return { claims: { userId: payload.sub, sessionToken: payload.sid }, exp: payload.exp };
  } catch (err) {
    if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
    throw err;
  }
}
