// A tax report's statements that want a few rows of a profile are planned on the partial indexes
// made for them (migration 0034), not on an index that walks every row of the profile: the real
// statements, recorded as reportRows and statusNotices send them, each explained.
import { type Executor, rowsOf } from '@folio/db';
import { reportRows } from '@folio/db/queries/reports';
import { statusNotices } from '@folio/db/queries/sat-status';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileOfMe } from './cfdi-setup';
import { startTestApi, type TestApi } from './harness';

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
});
afterAll(() => t.close());

/** The statements `read` sends, in order; each still runs on the real database. */
async function statementsOf(read: (db: Executor) => Promise<unknown>): Promise<SQL[]> {
  const sent: SQL[] = [];
  const db = t.handle.db;
  const recording = new Proxy(db, {
    get: (target, key) =>
      key === 'execute'
        ? (query: SQL) => {
            sent.push(query);
            return target.execute(query);
          }
        : Reflect.get(target, key),
  });
  await read(recording);
  return sent;
}

/** The plan of each statement with sequential scans off (a test's tables are tiny). */
async function plans(statements: SQL[]): Promise<string[]> {
  return t.handle.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const out: string[] = [];
    for (const s of statements) {
      const rows = rowsOf<Record<string, string>>(await tx.execute(sql`explain ${s}`));
      out.push(rows.map((r) => Object.values(r)[0]).join('\n'));
    }
    return out;
  });
}

describe('a report reads a profile by its partial indexes', () => {
  it('its open PPD invoices by cfdis_profile_ppd_idx, its nómina by cfdis_profile_nomina_idx, its SAT-status notices by cfdis_profile_status_idx', async () => {
    const { p } = await profileOfMe(t);
    const range = { profileId: p.id, from: '2025-01-01', to: '2026-01-01' };
    const report = await plans(await statementsOf((db) => reportRows(db, range)));
    const pending = report.find((plan) => plan.includes('CTE ppd'));
    const nomina = report.find((plan) => plan.includes("'nomina'"));
    expect(pending).toContain('cfdis_profile_ppd_idx');
    expect(nomina).toContain('cfdis_profile_nomina_idx');
    const [notices] = await plans(await statementsOf((db) => statusNotices(db, range)));
    expect(notices).toContain('cfdis_profile_status_idx');
  });
});
