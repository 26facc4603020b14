import { asc, desc, eq, sql } from 'drizzle-orm';
import { type Db, type Executor, rowsOf } from '../client';
import { profiles, requestFailures, supportRequests, users } from '../schema';

export type SupportRequestRow = typeof supportRequests.$inferSelect;
export type NewSupportRequest = typeof supportRequests.$inferInsert;
export type RequestFailureRow = Pick<
  typeof requestFailures.$inferSelect,
  'requestId' | 'status' | 'code' | 'createdAt'
>;

/** The next number of the folio sequence (taken before the transaction: a rollback leaves a gap, as sequences do). */
export async function nextSupportFolioNumber(db: Executor): Promise<number> {
  const [row] = rowsOf<{ n: string }>(
    await db.execute(sql`select nextval('support_request_folio_seq')::text as n`),
  );
  return Number(row!.n);
}

export async function insertSupportRequest(db: Executor, row: NewSupportRequest): Promise<SupportRequestRow> {
  const [inserted] = await db.insert(supportRequests).values(row).returning();
  return inserted!;
}

/** The user's requests, newest first. */
export function listSupportRequests(db: Db, userId: string): Promise<SupportRequestRow[]> {
  return db
    .select()
    .from(supportRequests)
    .where(eq(supportRequests.userId, userId))
    .orderBy(desc(supportRequests.createdAt), desc(supportRequests.id));
}

/** What the support team is told about the requester: address, profiles (RFC and name), latest failures. */
export async function supportRequesterFacts(db: Executor, userId: string, failures: number) {
  const [[user], owned, failed] = await Promise.all([
    db.select({ email: users.email }).from(users).where(eq(users.id, userId)),
    db
      .select({ id: profiles.id, rfc: profiles.rfc, nombre: profiles.nombre })
      .from(profiles)
      .where(eq(profiles.userId, userId))
      .orderBy(asc(profiles.createdAt), asc(profiles.id)),
    db
      .select({
        requestId: requestFailures.requestId,
        status: requestFailures.status,
        code: requestFailures.code,
        createdAt: requestFailures.createdAt,
      })
      .from(requestFailures)
      .where(eq(requestFailures.userId, userId))
      .orderBy(desc(requestFailures.id))
      .limit(failures),
  ]);
  return { email: user?.email, profiles: owned, failures: failed as RequestFailureRow[] };
}

/**
 * Records a failed call of the user and, in the same statement, drops their failures older than the
 * newest `keep` (the delete sees the rows before this insert, so it keeps `keep − 1` of them).
 */
export async function recordRequestFailure(
  db: Executor,
  failure: { userId: string; requestId: string; status: number; code: string },
  keep: number,
): Promise<void> {
  const { userId, requestId, status, code } = failure;
  await db.execute(sql`with added as (
      insert into request_failures (user_id, request_id, status, code)
      values (${userId}, ${requestId}, ${status}, ${code})
    )
    delete from request_failures where user_id = ${userId} and id <= (
      select id from request_failures where user_id = ${userId} order by id desc offset ${keep - 1} limit 1
    )`);
}
