// Two imports of CFDI with the same counterparty run side by side. The search dictionary's trigger
// (migrations 0033, 0035) notes each stored CFDI's counterparty; noting one it already holds as it
// is must not lock its entry, or every import of one supplier's CFDI waits for the one before it to
// commit, holding a pool connection the whole time (bench:load: 13 imports queued at once and the
// reads starved behind them, docs/benchmarks.md). PostgreSQL only: PGlite has one connection, so
// its transactions never overlap.
import { newUuid } from '@folio/cfdi/testing';
import { copyCfdi } from '@folio/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOne, profileOfMe, sale } from './cfdi-setup';
import { startTestApi, type TestApi } from './harness';

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

/** Long enough for an import on a busy machine, and far shorter than waiting on a lock forever. */
const PATIENCE_MS = 10_000;

describe.runIf(process.env.TEST_DATABASE_URL)('imports of one counterparty at once', () => {
  it('an import stores its CFDI while another transaction holds a new CFDI of the same counterparty uncommitted', async () => {
    const { u, p } = await profileOfMe(t);
    const first = await importOne(t, u, p.id, sale(newUuid()));
    expect(first.status).toBe('imported');

    // Another import's transaction, stopped right after its insert (the trigger has run): a copy of
    // the stored row under a new id and UUID.
    let finish!: () => void;
    const held = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let inserted!: () => void;
    const insertDone = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const other = t.handle.db
      .transaction(async (tx) => {
        await copyCfdi(tx, first.id!, 1);
        inserted();
        await held;
        throw new Error('rolled back');
      })
      .catch((err: Error) => err.message);
    // The copy failing would leave `inserted` uncalled: its error ends the wait instead.
    await Promise.race([insertDone, other.then((why) => Promise.reject(new Error(why)))]);

    const line = await Promise.race([
      importOne(t, u, p.id, sale(newUuid())),
      new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), PATIENCE_MS)),
    ]);
    finish();
    expect(await other).toBe('rolled back');
    expect(line === 'waiting' ? line : line.status).toBe('imported');
  });
});
