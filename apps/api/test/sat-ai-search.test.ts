import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSatCatalog } from '@folio/api';
import { quotaPeriod } from '@folio/billing';
import { usageCounters } from '@folio/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  cookie,
  expectError,
  request,
  setPlan,
  signUp,
  startTestApp,
  type TestApp,
  type TestUser,
} from './harness';
import { editedCatalog } from './support/catalog-csv';

// GET /api/sat/ai-search and sat.aiSearch on the starter catalog every database starts with: plan
// gates, the monthly quota, the result cap, explanations. What it finds on the full catalog is
// measured in packages/api/test/sat-ai-relevance.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (u: TestUser, query: string) =>
  request(t, 'GET', `/api/sat/ai-search?${query}`, { headers: cookie(u.token) });
const search = (u: TestUser, query: string) => get(u, `query=${encodeURIComponent(query)}`);
const onPlan = async (plan?: 'BASIC' | 'PRO') => {
  const u = await signUp(t);
  if (plan) await setPlan(t, u.id, plan);
  return u;
};
/** Counts `used` AI searches this month for a user, as earlier searches would have. */
const spend = (u: TestUser, used: number) =>
  t.handle.db
    .insert(usageCounters)
    .values({ userId: u.id, period: quotaPeriod(), kind: 'sat_ai_search', used });

/**
 * Imports a newer catalog: the stored one with these rows (CSV lines) added or updated, as `pnpm
 * catalog:import` of it would (a file lacking the other codes would remove them).
 */
async function importRows(...lines: string[]) {
  const csv = await editedCatalog(t.handle.db, join(mkdtempSync(join(tmpdir(), 'sat-ai-')), 'rows.csv'));
  appendFileSync(csv, `${lines.join('\n')}\n`);
  await importSatCatalog(t.handle.db, csv);
}

describe('plan gates', () => {
  it('FREE (0 AI searches a month) gets 403 naming the plans that include it, over HTTP and tRPC', async () => {
    const u = await onPlan();
    const message = await expectError(await search(u, 'renta de oficina'), 403, 'Forbidden');
    expect(message).toBe(
      'SAT search by meaning requires the BASIC or PRO plan; upgrade with POST /api/subscription/create-checkout',
    );
    await expect(caller(t, u.token).sat.aiSearch({ query: 'renta de oficina' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message:
        'SAT search by meaning requires the BASIC or PRO plan; upgrade with POST /api/subscription/create-checkout',
    });
  });

  it('BASIC answers scored results without explanations, counting against its 50 a month', async () => {
    const u = await onPlan('BASIC');
    const res = await search(u, 'le cargué gasolina a la troca');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-quota-limit')).toBe('50');
    expect(res.headers.get('x-quota-remaining')).toBe('49');
    const body = await res.json();
    expect(body).toMatchObject({ offset: 0, query: 'le cargué gasolina a la troca' });
    expect(body.items.length).toBe(body.limit);
    expect(body.items.slice(0, 3).map((i: { id: string }) => i.id)).toContain('15101514');
    for (const item of body.items) {
      expect(item.explicacion).toBeUndefined();
      expect(item.score).toBeGreaterThan(0);
      expect(item.score).toBeLessThanOrEqual(1);
    }
    const scores = body.items.map((i: { score: number }) => i.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('PRO explains each result in Spanish from its catalog row (matched words, IVA, IEPS, complemento, vigencia)', async () => {
    const u = await onPlan('PRO');
    const res = await caller(t, u.token).sat.aiSearch({ query: 'pago del recibo de luz', limit: 3 });
    const [first] = res.items;
    expect(first?.id).toBe('83101800');
    expect(first?.explicacion).toBe(
      'Coincide con su búsqueda por «recibo de luz», que se relaciona con «servicios» y «eléctricos»: «Servicios eléctricos». ' +
        'IVA trasladado: Opcional. IEPS trasladado: Opcional. El catálogo no exige complemento. ' +
        'Vigente desde el 2019-01-07, sin fecha de fin de vigencia.',
    );
  });

  it('an expired code, a required complement and a Sí/No tax flag are said as the row says them', async () => {
    await importRows(
      '15101506,Gasolina,Sí,Sí,,2019-01-07,2020-12-31,1,',
      '50202201,Cerveza,Sí,No,Bebidas alcohólicas,2019-01-07,,1,Chela',
    );
    const u = await onPlan('PRO');
    const { items } = await caller(t, u.token).sat.aiSearch({ query: 'cartón de chelas', limit: 5 });
    const beer = items.find((i) => i.id === '50202201');
    expect(beer?.explicacion).toContain('IVA trasladado: Sí. IEPS trasladado: No.');
    expect(beer?.explicacion).toContain('El CFDI debe incluir el complemento «Bebidas alcohólicas».');
    const gas = (await caller(t, u.token).sat.aiSearch({ query: 'gasolina', limit: 10 })).items.find(
      (i) => i.id === '15101506',
    );
    expect(gas?.explicacion).toContain(
      'Ya no está vigente: su vigencia terminó el 2020-12-31 (comenzó el 2019-01-07).',
    );
  });
});

describe('quota', () => {
  it('past the monthly quota answers 429 with Retry-After, and counts apart from the basic search', async () => {
    const u = await onPlan('BASIC');
    await spend(u, 49);
    const last = await search(u, 'agua purificada');
    expect(last.status).toBe(200);
    expect(last.headers.get('x-quota-remaining')).toBe('0');
    const over = await search(u, 'agua purificada');
    await expectError(over, 429, 'Too Many Requests');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('x-quota-limit')).toBe('50');
    await expect(caller(t, u.token).sat.aiSearch({ query: 'agua' })).rejects.toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    });
    const basic = await request(t, 'GET', '/api/sat/search?query=agua', { headers: cookie(u.token) });
    expect(basic.status).toBe(200);
    expect(basic.headers.get('x-quota-remaining')).toBe('99');
  });

  it('PRO has 500 a month', async () => {
    const u = await onPlan('PRO');
    const res = await search(u, 'clases de computación');
    expect(res.headers.get('x-quota-limit')).toBe('500');
    expect(res.headers.get('x-quota-remaining')).toBe('499');
  });

  it('refuses a missing or empty query and a limit outside 1-100 with 400, spending nothing', async () => {
    const u = await onPlan('BASIC');
    for (const q of [
      '',
      'query=',
      'query=%20%20',
      'query=agua&limit=0',
      'query=agua&limit=101',
      'query=agua&offset=-1',
    ]) {
      await expectError(await get(u, q), 400, 'Bad Request');
    }
    const res = await search(u, 'agua');
    expect(res.headers.get('x-quota-remaining')).toBe('49');
  });

  it('answers 401 without a token', async () => {
    await expectError(await request(t, 'GET', '/api/sat/ai-search?query=agua'), 401, 'Unauthorized');
  });
});

describe('results', () => {
  it('BASIC results go no deeper than satMaxResults (50)', async () => {
    const u = await onPlan('BASIC');
    const body = await (await get(u, 'query=servicios&limit=100&offset=45')).json();
    expect(body.offset).toBe(45);
    expect(body.limit).toBeLessThanOrEqual(5);
    expect(body.items).toHaveLength(body.limit);
  });

  it('finds everyday Spanish on the starter catalog', async () => {
    const u = await onPlan('PRO');
    const top3 = async (query: string) =>
      (await caller(t, u.token).sat.aiSearch({ query, limit: 3 })).items.map((i) => i.id);
    expect(await top3('le vendo garrafones de agua')).toContain('50202301');
    expect(await top3('llevo la contabilidad de una tiendita')).toContain('84111500');
    expect(await top3('hospedaje por noche en mi hostal')).toContain('90111500');
    expect(await top3('vendo laptops')).toContain('43211508');
  });

  it('finds a code imported after the model was built (the model follows the catalog)', async () => {
    const u = await onPlan('PRO');
    const before = await caller(t, u.token).sat.aiSearch({
      query: 'piñatas para fiestas infantiles',
      limit: 5,
    });
    expect(before.items.map((i) => i.id)).not.toContain('60141012');
    await importRows('60141012,Piñatas,Sí,No,,2019-01-07,,1,');
    const after = await caller(t, u.token).sat.aiSearch({
      query: 'piñatas para fiestas infantiles',
      limit: 5,
    });
    expect(after.items[0]?.id).toBe('60141012');
  });
});
