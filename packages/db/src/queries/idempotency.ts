import { and, eq, gt, lt } from 'drizzle-orm';
import type { Executor, Tx } from '../client';
import { idempotencyKeys } from '../schema';

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

export type StoredAnswer = {
  requestHash: string;
  status: number;
  response: unknown;
  headers: Record<string, string>;
};

/** The answer first given for this key, while it is younger than 24 h. */
export async function findAnswer(
  db: Executor,
  userId: string,
  key: string,
): Promise<StoredAnswer | undefined> {
  const [row] = await db
    .select({
      requestHash: idempotencyKeys.requestHash,
      status: idempotencyKeys.status,
      response: idempotencyKeys.response,
      headers: idempotencyKeys.headers,
    })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.key, key),
        gt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_TTL_MS)),
      ),
    );
  return row;
}

/** Records the answer in the transaction that produced it (an expired key is replaced). */
export async function saveAnswer(tx: Tx, userId: string, key: string, answer: StoredAnswer): Promise<void> {
  await tx
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.key, key),
        lt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_TTL_MS)),
      ),
    );
  await tx.insert(idempotencyKeys).values({ userId, key, ...answer, response: answer.response as object });
}
