import { type ValidSession, validateSessionToken } from '@folio/auth';
import type { Db } from '@folio/db';
import type { Context } from '../../context';

/**
 * Live sessions (with their user) this process read in the last `sessionCacheMs`, by the session's
 * secret (as the verified access tokens are kept: hashing it into the id cost more than the lookup):
 * every authenticated request read its session, one statement of one or two a listing sends
 * (docs/benchmarks.md, "CPU per request"). What ends or changes a session or its user in this process
 * forgets it at once (logout, password change or reset, email verification, refresh); done by another
 * process or straight in the database, it takes effect within `sessionCacheMs` (docs/design.md,
 * "Session cache").
 */
interface Cache {
  entries: Map<string, { valid: Omit<ValidSession, 'renewed'>; until: number }>;
  /** Bumped by every forget: a read that began before one does not store what it read. */
  generation: number;
}
const caches = new WeakMap<Db, Cache>();
const CACHE_MAX = 10_000;

function cacheOf(db: Db): Cache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { entries: new Map(), generation: 0 };
    caches.set(db, cache);
  }
  return cache;
}

/** `validateSessionToken`, answered from memory while a read of the same session is fresh enough. */
export async function liveSession(ctx: Context, sessionToken: string): Promise<ValidSession | null> {
  const { sessionTtlMs: ttlMs, sessionCacheMs: cacheMs = 0 } = ctx.config;
  if (cacheMs <= 0) return validateSessionToken(ctx.db, sessionToken, ttlMs);
  const cache = cacheOf(ctx.db);
  const now = Date.now();
  const hit = cache.entries.get(sessionToken);
  // A session due to slide (under half its lifetime left) goes to the database, which slides it.
  if (hit && hit.until > now && hit.valid.session.expiresAt.getTime() - now >= ttlMs / 2)
    return { ...hit.valid, renewed: false };
  const generation = cache.generation;
  const valid = await validateSessionToken(ctx.db, sessionToken, ttlMs);
  if (!valid) cache.entries.delete(sessionToken);
  else if (generation === cache.generation) {
    if (cache.entries.size >= CACHE_MAX) cache.entries.delete(cache.entries.keys().next().value!);
    const entry = { valid: { user: valid.user, session: valid.session }, until: now + cacheMs };
    cache.entries.set(sessionToken, entry);
  }
  return valid;
}

/** After a session ended or moved its expiry: the next request reads it again. */
export function forgetSession(db: Db, sessionId: string): void {
  const cache = cacheOf(db);
  cache.generation++;
  for (const [secret, { valid }] of cache.entries)
    if (valid.session.id === sessionId) cache.entries.delete(secret);
}

/** After a user's sessions ended or the user changed (password, verified email): all of theirs. */
export function forgetUserSessions(db: Db, userId: string): void {
  const cache = cacheOf(db);
  cache.generation++;
  for (const [secret, { valid }] of cache.entries) if (valid.user.id === userId) cache.entries.delete(secret);
}
