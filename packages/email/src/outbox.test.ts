import type { DbHandle } from '@folio/db';
import { emailOutbox } from '@folio/db/schema';
import { testDb } from '@folio/db/testing/vitest';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEmail } from './outbox';

let handle: DbHandle;
beforeAll(async () => {
  handle = await testDb();
});
afterAll(async () => {
  await handle?.close();
});

const msg = {
  to: 'ana@example.com',
  subject: 'Hola',
  html: '<p>Hola</p>',
  text: 'Hola',
  kind: 'verify-email',
};

describe('enqueueEmail', () => {
  it('writes a pending row with no attempts, due now, and returns its id', async () => {
    const id = await enqueueEmail(handle.db, msg);
    const [row] = await handle.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row).toMatchObject({ ...msg, status: 'pending', attempts: 0, providerId: null, sentAt: null });
    expect(row!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('takes part in the caller transaction: a rollback leaves no mail behind', async () => {
    let id = '';
    await expect(
      handle.db.transaction(async (tx) => {
        id = await enqueueEmail(tx, msg);
        throw new Error('registration failed');
      }),
    ).rejects.toThrow('registration failed');
    expect(await handle.db.select().from(emailOutbox).where(eq(emailOutbox.id, id))).toHaveLength(0);
  });
});
