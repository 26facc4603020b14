import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from './client';
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
});
