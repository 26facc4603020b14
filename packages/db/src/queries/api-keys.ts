import { and, count, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../client';
import { prepared } from '../prepared';
import { apiKeyIps, apiKeys, users } from '../schema';
import { lockUser } from './billing-profiles';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;

/** Not revoked and not past its expiry: the keys that authenticate, are listed and count to the limit. */
const active = () =>
  and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)));

/** Inserts the key unless the user already has `limit` active ones; the user row lock serialises it. */
export async function insertApiKeyWithinLimit(
  db: Db,
  values: NewApiKey,
  limit: number,
): Promise<ApiKeyRow | null> {
  return db.transaction(async (tx) => {
    await lockUser(tx, values.userId);
    const [row] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, values.userId), active()));
    if ((row?.n ?? 0) >= limit) return null;
    const [inserted] = await tx.insert(apiKeys).values(values).returning();
    return inserted ?? null;
  });
}

/** The user's active keys, newest first. */
export function listActiveApiKeys(db: Executor, userId: string): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), active()))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** Revokes one of the user's active keys; false when there is no such key (unknown, foreign, gone). */
export async function revokeApiKey(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), active()))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/** Revokes every active key of the user (a password reset); returns how many. */
export async function revokeAllApiKeys(db: Executor, userId: string): Promise<number> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.userId, userId), active()))
    .returning({ id: apiKeys.id });
  return rows.length;
}

/**
 * The active key with this hash, its owner, and whether `ip` was seen with it before: one read per
 * request, whatever the key's traffic.
 */
export async function findActiveApiKey(db: Db, secretHash: string, ip: string) {
  const [row] = await prepared(db, 'findActiveApiKey', (c) =>
    c
      .select({ key: apiKeys, user: users, knownIp: sql<boolean>`${apiKeyIps.ip} is not null` })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .leftJoin(apiKeyIps, and(eq(apiKeyIps.keyId, apiKeys.id), eq(apiKeyIps.ip, sql.placeholder('ip'))))
      .where(and(eq(apiKeys.secretHash, sql.placeholder('hash')), active())),
  ).execute({ hash: secretHash, ip });
  return row ?? null;
}

/** Records `ip` for the key; true only for the request that recorded it first. */
export async function recordApiKeyIp(db: Db, keyId: string, ip: string): Promise<boolean> {
  const rows = await db
    .insert(apiKeyIps)
    .values({ keyId, ip })
    .onConflictDoNothing()
    .returning({ ip: apiKeyIps.ip });
  return rows.length > 0;
}

/** Stamps last_used_at unless it was stamped within `minMs`, so a busy key writes once a minute at most. */
export async function touchApiKey(db: Db, keyId: string, minMs: number): Promise<void> {
  const since = new Date(Date.now() - minMs);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, since))));
}
