// samples/cfdi (written by `pnpm samples`, imported by `pnpm demo`): every good file imports into the
// demo taxpayer's profile on the side its name says, and the one bad file is refused with its reason.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAD_SAMPLE, DEMO_TAXPAYER, SAMPLES_DIR } from '../scripts/demo-taxpayer';
import {
  bearer,
  createProfile,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
  uploadFiles,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const names = readdirSync(SAMPLES_DIR)
  .filter((f) => f.endsWith('.xml'))
  .sort();
const files = names.map((name) => ({ name, content: readFileSync(join(SAMPLES_DIR, name)) }));

/** Where a sample belongs, by its name: what the demo taxpayer issued is income, what she received or paid out (payroll) an expense. */
const expectedKind = (name: string) => (/-(gasto|nomina)-/.test(name) ? 'expense' : 'invoice');

describe('samples/cfdi, imported into the demo taxpayer profile', () => {
  let report: { imported: number; duplicates: number; rejected: number; files: any[] };
  let user: TestUser;
  let token: string;
  let profileId: string;

  beforeAll(async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'PRO');
    user = u;
    token = u.token;
    profileId = (await createProfile(t, u, { ...DEMO_TAXPAYER })).id;
    const res = await uploadFiles(t, u, profileId, files);
    expect(res.status).toBe(201);
    report = (await res.json()).data;
  });

  it('tells a story: issued PUE and PPD invoices, payment complements, a credit note, expenses and a nómina', () => {
    expect(names.some((n) => n.includes('-ingreso-pue-'))).toBe(true);
    expect(names.some((n) => n.includes('-ingreso-ppd-'))).toBe(true);
    expect(names.filter((n) => n.includes('-pago-'))).toHaveLength(2);
    expect(names.some((n) => n.includes('-nota-de-credito-'))).toBe(true);
    expect(names.filter((n) => n.includes('-gasto-')).length).toBeGreaterThanOrEqual(3);
    expect(names.some((n) => n.includes('-nomina-'))).toBe(true);
  });

  it('imports every good file, on the side its name says, with no validation error', async () => {
    const good = report.files.filter((f) => f.name !== BAD_SAMPLE);
    expect(good).toHaveLength(names.length - 1);
    for (const f of good) {
      expect(f, f.name).toMatchObject({ status: 'imported', kind: expectedKind(f.name) });
      if (f.kind !== 'invoice') continue; // expenses: checked through their listing below
      const doc = await (await request(t, 'GET', `/api/invoices/${f.id}`, { headers: bearer(token) })).json();
      expect(doc.validacion.errores, f.name).toEqual([]);
    }
    expect(report).toMatchObject({ imported: names.length - 1, duplicates: 0, rejected: 1 });
  });

  it('refuses the unstamped draft and says why', () => {
    expect(report.files.find((f) => f.name === BAD_SAMPLE)).toMatchObject({
      status: 'rejected',
      error: expect.stringContaining('sin timbre'),
    });
  });

  it('pays the PPD invoice in full with its two complements', async () => {
    const ppd = report.files.find((f) => f.name.includes('-ingreso-ppd-'));
    const invoice = await (
      await request(t, 'GET', `/api/invoices/${ppd.id}`, { headers: bearer(token) })
    ).json();
    // 24,000.00 + 16 % IVA = 27,840.00, paid as 13,920.00 twice.
    expect(invoice.estadoPago).toMatchObject({
      estado: 'PAGADO',
      totalFactura: 24_000 + 24_000 * 0.16,
      totalPagado: 13_920 * 2,
      saldoPendiente: 0,
    });
  });

  it('lists the expenses and the nómina on the expenses side', async () => {
    const res = await request(t, 'GET', `/api/expenses?profileId=${profileId}&limit=100`, {
      headers: bearer(token),
    });
    const { data } = await res.json();
    const uuids = report.files.filter((f) => f.kind === 'expense').map((f) => f.uuid);
    expect(data.map((e: { uuid: string }) => e.uuid).sort()).toEqual(uuids.sort());
  });

  it('a second import of the folder stores nothing new: every good file is a duplicate', async () => {
    const again = await uploadFiles(t, user, profileId, files);
    expect((await again.json()).data).toMatchObject({
      imported: 0,
      duplicates: names.length - 1,
      rejected: 1,
    });
  });
});

describe('samples/cfdi and its generator', () => {
  it('is exactly what `pnpm samples` writes (regenerate it after changing the script or the CFDI builder)', () => {
    const out = mkdtempSync(join(tmpdir(), 'folio-samples-'));
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/samples.ts', out], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        stdio: 'pipe',
      });
      const written = readdirSync(out).sort();
      expect(written).toEqual(names);
      for (const name of written)
        expect(readFileSync(join(out, name)), name).toEqual(readFileSync(join(SAMPLES_DIR, name)));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
