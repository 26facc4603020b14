import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle, Executor } from './client';
import { prepared } from './prepared';
import { findProfile } from './queries/profiles';
import { profiles, users } from './schema';
import { testDb } from './testing/vitest';

let handle: DbHandle;
beforeAll(async () => {
  handle = await testDb();
});
afterAll(async () => {
  await handle?.close();
});

async function newProfile(db: DbHandle['db'] | Parameters<Parameters<DbHandle['db']['transaction']>[0]>[0]) {
  const userId = randomUUID();
  await db.insert(users).values({ id: userId, email: `${userId}@example.com`, passwordHash: 'x' });
  const id = randomUUID();
  await db.insert(profiles).values({
    id,
    userId,
    nombre: 'Perfil',
    rfc: 'GOMA800101AB1',
    tipoPersona: 'FISICA',
    validacionesHabilitadas: {} as never,
  });
  return id;
}

describe('prepared statements', () => {
  it('a statement prepared on the database answers for each value it is given', async () => {
    const [a, b] = [await newProfile(handle.db), await newProfile(handle.db)];
    expect((await findProfile(handle.db, a))?.id).toBe(a);
    expect((await findProfile(handle.db, b))?.id).toBe(b);
    expect(await findProfile(handle.db, randomUUID())).toBeUndefined();
  });

  it('inside a transaction it runs in that transaction: it sees the uncommitted row, the pool does not', async () => {
    await findProfile(handle.db, randomUUID()); // prepared on the database first
    const rolledBack = new Error('roll back');
    const seen: { inTx?: string; outside?: string } = {};
    let id = '';
    await expect(
      handle.db.transaction(async (tx) => {
        id = await newProfile(tx);
        seen.inTx = (await findProfile(tx, id))?.id;
        // PGlite is one connection: a query outside would wait for this transaction.
        if (handle.kind === 'postgres') seen.outside = (await findProfile(handle.db, id))?.id ?? 'none';
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(seen.inTx).toBe(id);
    if (handle.kind === 'postgres') expect(seen.outside).toBe('none');
    expect(await findProfile(handle.db, id)).toBeUndefined();
  });

  it("maps a flat selection's rows exactly as drizzle does: nulls, jsonb, timestamps, numbers and typed SQL", async () => {
    const id = await newProfile(handle.db);
    const frozenAt = new Date('2025-03-04T17:20:11.123Z');
    await handle.db
      .update(profiles)
      .set({ frozen: true, frozenAt, regimenesFiscales: ['612', '626'] })
      .where(eq(profiles.id, id));
    const select = (c: Executor) =>
      c
        .select({
          id: profiles.id,
          regimenes: profiles.regimenesFiscales,
          flags: profiles.validacionesHabilitadas,
          frozen: profiles.frozen,
          frozenAt: profiles.frozenAt,
          reason: profiles.frozenReason,
          createdAt: profiles.createdAt,
          n: sql<number>`41 + 1`.mapWith(Number),
          raw: sql<string>`'x'`,
        })
        .from(profiles)
        .where(eq(profiles.id, sql.placeholder('id')));
    const ours = await prepared(handle.db, 'test:flat-mapping', select).execute({ id });
    const drizzles = await select(handle.db).prepare('test:flat-mapping-drizzle').execute({ id });
    expect(ours).toEqual(drizzles);
    expect(ours[0]).toMatchObject({ regimenes: ['612', '626'], frozen: true, frozenAt, reason: null, n: 42 });
    expect(ours[0]!.createdAt).toBeInstanceOf(Date);
  });
});
